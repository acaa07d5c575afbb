//===- BenchShapes.h - Shapes timed by tessel-vendor-bench ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The problem shapes that tessel-vendor-bench times with cuBLAS and cuDNN:
// their syntax ("--gemm=M,N,K [--batch=B]", "--conv=N,C,H,W,F,R,S,stride,
// pad[,dilation]", one per line in a shapes file), their FLOP counts and the
// CPU references that the results of small shapes are checked against.
//
// Layouts: a GEMM computes C[b] = A[b] * B[b] with row-major A (MxK), B (KxN)
// and C (MxN), batch b strided by the matrix size. A convolution is a 2-D
// cross-correlation of NCHW input with FCRS filters into NFPQ output.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_BENCHSHAPES_H
#define TESSEL_RUNTIME_BENCHSHAPES_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessel {
namespace runtime {

/// A (batched) matrix product.
struct GemmShape {
  int64_t m = 1, n = 1, k = 1, batch = 1;

  /// 2 * M * N * K * batch.
  double getFlops() const { return 2.0 * getWork(); }
  /// Multiply-adds: M * N * K * batch.
  int64_t getWork() const { return m * n * k * batch; }
  /// "M,N,K" (and " --batch=B" when batch > 1).
  std::string str() const;
};

/// A 2-D convolution (cross-correlation), NCHW input, FCRS filter.
struct ConvShape {
  int64_t n = 1, c = 1, h = 1, w = 1, f = 1, r = 1, s = 1;
  int64_t stride = 1, pad = 0, dilation = 1;

  /// Output height P = (H + 2 pad - dilation (R - 1) - 1) / stride + 1.
  int64_t getOutputH() const;
  /// Output width Q, likewise with W and S.
  int64_t getOutputW() const;
  /// 2 * N * F * P * Q * C * R * S.
  double getFlops() const { return 2.0 * getWork(); }
  /// Multiply-adds: N * F * P * Q * C * R * S.
  int64_t getWork() const;
  /// "N,C,H,W,F,R,S,stride,pad,dilation".
  std::string str() const;
};

/// One shape to time.
struct BenchShape {
  enum class Kind { Gemm, Conv };
  Kind kind = Kind::Gemm;
  GemmShape gemm;
  ConvShape conv;
};

/// Shapes with at most this many multiply-adds are checked against the CPU
/// reference (64^3).
constexpr int64_t kMaxVerifiedWork = 64 * 64 * 64;

/// Parses "M,N,K". Errors name the text, e.g. "--gemm=1,2: expected 3
/// comma-separated integers M,N,K, got 2".
bool parseGemmShape(std::string_view text, GemmShape &shape,
                    std::string &error);
/// Parses "N,C,H,W,F,R,S,stride,pad[,dilation]".
bool parseConvShape(std::string_view text, ConvShape &shape,
                    std::string &error);
/// Parses one shape: "--gemm=M,N,K [--batch=B]" or "--conv=...", options
/// separated by blanks; the leading "--" of each option may be left out.
bool parseShapeLine(std::string_view line, BenchShape &shape,
                    std::string &error);
/// Parses a shapes file: one shape per line; '#' starts a comment; blank
/// lines are skipped. Errors start with "line N: ".
bool parseShapesFile(std::string_view text, std::vector<BenchShape> &shapes,
                     std::string &error);

/// C = A * B in double for each batch (layouts above).
void referenceGemm(const GemmShape &shape, const float *a, const float *b,
                   double *c);
/// The convolution of `x` with `w` in double (layouts above).
void referenceConv(const ConvShape &shape, const float *x, const float *w,
                   double *y);

} // namespace runtime
} // namespace tessel

#endif // TESSEL_RUNTIME_BENCHSHAPES_H
