#pragma once
// `contend-cli simulate`: runs a scenario of the device simulator (core/sim) and writes a
// Kineto-shaped trace, optionally with its ground truth. argv[0] is "simulate".
// Exit codes: 0 ok, 2 usage, 3 I/O error.
namespace contend::cli {

int runSimulate(int argc, char** argv);

}  // namespace contend::cli
