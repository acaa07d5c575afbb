//===- RandomTasks.h - Random operators for Fasor's dataset -----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Fasor's dataset mixes model-zoo operators with random ones (seed 004,
// section 7: random conv stacks). This writes random f32 matmuls, 2-D
// convolutions and depthwise convolutions (batch 1, NCHW) as an MLIR module
// of one function per operator, each with a zero-filled init.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_RANDOMTASKS_H
#define TESSEL_TUNING_STRATEGIES_FASOR_RANDOMTASKS_H

#include <cstdint>
#include <string>

namespace mlir {
namespace tessel {
namespace fasor {

/// A module of `count` random operators drawn with `seed`, in turn a
/// matmul (M, N, K among 32 ... 4096, powers of two and their halves
/// times 3), a conv_2d_nchw_fchw (channels 16 ... 512, outputs 7 ... 112
/// square, kernel 1, 3, 5 or 7, stride 1 or 2, no padding) and a
/// depthwise_conv_2d_nchw_chw (the same shapes, one filter per channel).
std::string makeRandomTaskModule(int64_t count, uint64_t seed);

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_RANDOMTASKS_H
