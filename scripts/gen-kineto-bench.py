#!/usr/bin/env python3
"""Writes a large Kineto-shaped trace for the loader benchmark: N kernel events with the args
real Kineto kernels carry (about 490 bytes each, so 1M kernels is ~490 MB), on 4 GPU streams.

    scripts/gen-kineto-bench.py [--contended F] [--launches] N OUT.json
    scripts/gen-kineto-bench.py 1000000 /tmp/kineto-1m.json
    build/app/cli/contend-cli bench-load /tmp/kineto-1m.json --repeat 3

Unlike `contend-cli simulate --events N`, it writes kernels only (no host events, flows or
counters), which is the shape the reader's throughput target is stated for.

--contended F (0 < F < 1; without it the trace above, byte for byte) adds a partner kernel (a
reduction) on a fifth stream, busy about F of the time in stretches of about 2 ms, and every
kernel that starts while the partner runs takes 3x its drawn duration; the kernels are three
GEMM-like ones (no fill kernel: a fill is judged as a memset without a byte count, never
flagged) 8x further apart, so that outside the stretches many runs have no neighbour. A trace
where most operators really are slower beside a neighbour, for the scale benchmark's
many-findings row: F = 0.8 at 1M flags 679,876 at coefficient 0.5. The partner kernels count
towards N.
--launches adds each kernel's cudaLaunchKernel call (a host thread, 5 us before the kernel,
linked by its correlation id), the shape the breakdowns' idle, queue-length and launch
sections need (`contend-cli bench-analyze` times them)."""
import random
import sys


def main() -> None:
    args = sys.argv[1:]
    contended = 0.0
    launches = "--launches" in args
    args = [a for a in args if a != "--launches"]
    if len(args) == 4 and args[0] == "--contended":
        contended = float(args[1])
        if not 0 < contended < 1:
            sys.exit("gen-kineto-bench.py: --contended takes a fraction between 0 and 1")
        args = args[2:]
    if len(args) != 2:
        sys.exit(__doc__)
    n, path = int(args[0]), args[1]
    rng = random.Random(1)
    partner_rng = random.Random(2)
    # The partner leans on memory (a reduction), the kernels it slows on compute (GEMMs), so its
    # character marks the same runs as the partner itself; and no fill kernel, which is judged
    # as a memset without a byte count (never flagged).
    partner = ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
               "at::native::MeanOps<float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
               "at::native::MeanOps<float, float>, unsigned int, float, 4>)")
    names = [
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
        "ampere_sgemm_128x64_tn",
        "void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>"
        "(cudnn::winograd_nonfused::WinogradDataParams<float, float>)",
    ]
    if contended:
        names = ["ampere_sgemm_128x64_tn", "ampere_sgemm_64x64_nn",
                 "void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>"
                 "(cudnn::winograd_nonfused::WinogradDataParams<float, float>)"]
    # Contended, the kernels come 8x further apart, so that outside the partner's stretches a run
    # often has no neighbour and the runs beside nobody make a reference to compare with.
    gap = 24 if contended else 3
    ts = 1661938466240491.0
    with open(path, "w") as out:
        out.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "A100"}],\n  "traceEvents": [\n')
        out.write('  {"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}}')
        event = (',\n  {"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": %d, "ts": %.3f, "dur": %.3f, '
                 '"args": {"External id": %d, "queued": 0, "device": 0, "context": 1, "stream": %d, '
                 '"correlation": %d, "registers per thread": 32, "shared memory": 0, "blocks per SM": 0.5, '
                 '"warps per SM": 2.0, "grid": [54, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %%": 12}}')
        launch = (',\n  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, '
                  '"ts": %.3f, "dur": 0.5, "args": {"External id": %d, "correlation": %d}}')
        # The partner's current stretch [busy_start, busy_end), drawn ahead of the kernels.
        busy_start = busy_end = ts
        i = 0
        while i < n:
            if contended and ts >= busy_end and i + 1 < n:
                busy_start = busy_end + partner_rng.uniform(0.5, 1.5) * 2000 * (1 - contended) / contended
                busy_end = busy_start + partner_rng.uniform(0.5, 1.5) * 2000
                out.write(event % (partner, 20, busy_start, busy_end - busy_start, i, 20, i))
                i += 1
            stream = rng.choice((7, 14, 15, 16))
            ts += rng.random() * gap
            name = rng.choice(names)
            dur = rng.random() * 20
            if busy_start <= ts < busy_end:
                dur *= 3
            out.write(event % (name, stream, ts, dur, i, stream, i))
            if launches:
                out.write(launch % (ts - 5, i, i))
            i += 1
        out.write('\n  ],\n  "traceName": "bench"\n}\n')


if __name__ == "__main__":
    main()
