#!/usr/bin/env python3
"""Writes a large Kineto-shaped trace for the loader benchmark: N kernel events with the args
real Kineto kernels carry (about 490 bytes each, so 1M kernels is ~490 MB), on 4 GPU streams.

    scripts/gen-kineto-bench.py 1000000 /tmp/kineto-1m.json
    build/app/cli/contend-cli bench-load /tmp/kineto-1m.json --repeat 3

Unlike `contend-cli simulate --events N`, it writes kernels only (no host events, flows or
counters), which is the shape the reader's throughput target is stated for."""
import random
import sys


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, path = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(1)
    names = [
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
        "ampere_sgemm_128x64_tn",
        "void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>"
        "(cudnn::winograd_nonfused::WinogradDataParams<float, float>)",
    ]
    ts = 1661938466240491.0
    with open(path, "w") as out:
        out.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "A100"}],\n  "traceEvents": [\n')
        out.write('  {"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}}')
        for i in range(n):
            stream = rng.choice((7, 14, 15, 16))
            ts += rng.random() * 3
            out.write(
                ',\n  {"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": %d, "ts": %.3f, "dur": %.3f, '
                '"args": {"External id": %d, "queued": 0, "device": 0, "context": 1, "stream": %d, '
                '"correlation": %d, "registers per thread": 32, "shared memory": 0, "blocks per SM": 0.5, '
                '"warps per SM": 2.0, "grid": [54, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %%": 12}}'
                % (rng.choice(names), stream, ts, rng.random() * 20, i, stream, i))
        out.write('\n  ],\n  "traceName": "bench"\n}\n')


if __name__ == "__main__":
    main()
