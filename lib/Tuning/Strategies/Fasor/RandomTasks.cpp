//===- RandomTasks.cpp - Random operators for Fasor's dataset -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/RandomTasks.h"

#include "llvm/Support/FormatVariadic.h"

#include <random>

using namespace mlir::tessel::fasor;

namespace {
constexpr int64_t kMatrixExtents[] = {32,  48,  64,   96,   128,  192,  256, 384,
                                      512, 768, 1024, 1536, 2048, 3072, 4096};
constexpr int64_t kChannels[] = {16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512};
constexpr int64_t kOutputs[] = {7, 14, 28, 56, 112};
constexpr int64_t kKernels[] = {1, 3, 5, 7};

template <typename T, size_t N>
int64_t pick(const T (&values)[N], std::mt19937_64 &rng) {
  return values[rng() % N];
}

std::string makeMatmul(int64_t index, std::mt19937_64 &rng) {
  int64_t m = pick(kMatrixExtents, rng), n = pick(kMatrixExtents, rng),
          k = pick(kMatrixExtents, rng);
  return llvm::formatv(
      R"mlir(func.func @matmul{0}(%a: tensor<{1}x{3}xf32>, %b: tensor<{3}x{2}xf32>) -> tensor<{1}x{2}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{1}x{2}xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<{1}x{2}xf32>) -> tensor<{1}x{2}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{1}x{3}xf32>, tensor<{3}x{2}xf32>) outs(%i : tensor<{1}x{2}xf32>) -> tensor<{1}x{2}xf32>
  return %r : tensor<{1}x{2}xf32>
}
)mlir",
      index, m, n, k);
}

std::string makeConvolution(int64_t index, bool depthwise,
                            std::mt19937_64 &rng) {
  int64_t c = pick(kChannels, rng), f = pick(kChannels, rng);
  int64_t out = pick(kOutputs, rng), kernel = pick(kKernels, rng);
  int64_t stride = 1 + rng() % 2;
  int64_t in = (out - 1) * stride + kernel;
  std::string input = llvm::formatv("tensor<1x{0}x{1}x{1}xf32>", c, in);
  std::string attrs = llvm::formatv(
      "{{dilations = dense<1> : tensor<2xi64>, strides = dense<{0}> : "
      "tensor<2xi64>}",
      stride);
  if (depthwise) {
    std::string filter = llvm::formatv("tensor<{0}x{1}x{1}xf32>", c, kernel);
    std::string result = llvm::formatv("tensor<1x{0}x{1}x{1}xf32>", c, out);
    return llvm::formatv(
        R"mlir(func.func @depthwise{0}(%x: {1}, %w: {2}) -> {3} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {3}
  %i = linalg.fill ins(%zero : f32) outs(%e : {3}) -> {3}
  %r = linalg.depthwise_conv_2d_nchw_chw {4} ins(%x, %w : {1}, {2}) outs(%i : {3}) -> {3}
  return %r : {3}
}
)mlir",
        index, input, filter, result, attrs);
  }
  std::string filter =
      llvm::formatv("tensor<{0}x{1}x{2}x{2}xf32>", f, c, kernel);
  std::string result = llvm::formatv("tensor<1x{0}x{1}x{1}xf32>", f, out);
  return llvm::formatv(
      R"mlir(func.func @conv{0}(%x: {1}, %w: {2}) -> {3} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {3}
  %i = linalg.fill ins(%zero : f32) outs(%e : {3}) -> {3}
  %r = linalg.conv_2d_nchw_fchw {4} ins(%x, %w : {1}, {2}) outs(%i : {3}) -> {3}
  return %r : {3}
}
)mlir",
      index, input, filter, result, attrs);
}
} // namespace

std::string mlir::tessel::fasor::makeRandomTaskModule(int64_t count,
                                                      uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string module;
  for (int64_t i = 0; i < count; ++i) {
    switch (i % 3) {
    case 0:
      module += makeMatmul(i, rng);
      break;
    case 1:
      module += makeConvolution(i, /*depthwise=*/false, rng);
      break;
    default:
      module += makeConvolution(i, /*depthwise=*/true, rng);
      break;
    }
  }
  return module;
}
