#pragma once
// What the trace calls each kind: PyTorch's CUDA kernel and aten op for the same work
// (`--names pytorch`), or names that say nothing (`--names neutral`).
#include <array>
#include <string>

#include "lab_types.h"

namespace lab {

enum class NameStyle { PyTorch, Neutral };

struct KernelNames {
    std::string kernel;  // the kernel event's name
    std::string hostOp;  // the cpu_op that launched it
    std::array<int, 3> grid{1, 1, 1};
    std::array<int, 3> block{1, 1, 1};
    int registers = 32;
    int sharedMemory = 0;
};

KernelNames namesOf(Kind k, NameStyle style);

}  // namespace lab
