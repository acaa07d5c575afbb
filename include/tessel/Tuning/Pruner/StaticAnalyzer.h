//===- StaticAnalyzer.h - Pruner's Parameterized Static Analyzer -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The Parameterized Static Analyzer (PSA) of Pruner (Qiao et al.): an
// analytical latency of a scheduled candidate, the sum over its innermost
// statements (the compute statement, the cooperative shared-memory copies and
// the fused consumers of tessel/Tuning/Features/Statements.h) of a compute
// term and a memory term scaled by efficiency penalties:
//
//   L_c = n_ops * alpha * P_reg / (T_p * P_kernel * P_warp)
//   L_m = n_m / (T_m * P_mem)
//
// The paper sums the two terms (Eq. 4); the authors' code takes their
// maximum, fixes P_mem at 1, counts memory in elements and uses another
// alpha and a capped kernel penalty. Both are implemented (PsaForm); every
// hardware parameter comes from the device description (PsaParameters).
// docs/Pruner.md gives the formulas, the choices the paper leaves open and
// the switches. The latencies model nothing but the ranking of candidates
// of one task: they are not measurements.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_PRUNER_STATICANALYZER_H
#define TESSEL_TUNING_PRUNER_STATICANALYZER_H

#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"
#include "tessel/Tuning/Device.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// Which formulas of the PSA to use.
enum class PsaForm {
  /// The paper (section 3.2, Eq. 3 and 4): L = L_c + L_m per statement,
  /// alpha = 1 + n_reg / n_com, P_mem on global transactions, memory in
  /// bytes, Eq. 3 with all warps of the grid.
  Paper,
  /// The authors' code (psa_model.py, feature_psa.cc): L = max(L_c, L_m),
  /// alpha = 1 + 1 / (1 + n_com / n_reg), P_mem = 1, memory in elements,
  /// n_r* = 128.
  Code,
};

/// Parses "paper" or "code".
llvm::Expected<PsaForm> parsePsaForm(llvm::StringRef text);
/// "paper" or "code".
llvm::StringRef stringifyPsaForm(PsaForm form);

/// The hardware parameters of the PSA.
struct PsaParameters {
  /// T_p: peak FP32 throughput, GFLOP/s.
  double peakGflops = 0;
  /// Peak FP16 tensor-core throughput, GFLOP/s, for tensor_core statements
  /// (0: none; they use T_p).
  double tensorPeakGflops = 0;
  /// Peak TF32 tensor-core throughput, GFLOP/s, for TF32 tensor_core
  /// statements (0: none; they use T_p).
  double tf32TensorPeakGflops = 0;
  /// T_m: DRAM bandwidth, GB/s.
  double bandwidthGbps = 0;
  /// n_sm: streaming multiprocessors.
  int64_t smCount = 0;
  /// n_b: blocks an SM runs at once in Eq. 3.
  int64_t activeBlocksPerSm = 1;
  /// n_w: warps an SM issues at once in Eq. 3 (its scheduler partitions).
  int64_t activeWarpsPerSm = 4;
  /// n_w*: threads per warp.
  int64_t warpSize = 32;
  /// n_r*: registers a thread may use without penalty.
  int64_t registerCap = 255;
  /// Registers of an SM; when positive, n_r* is at most this over the
  /// block's threads (rounded up to warps), so that a block fits an SM.
  int64_t registersPerSm = 0;
  /// n_l*: bytes of one global memory transaction.
  int64_t transactionBytes = 32;

  /// The parameters of `device` for `form`: T_p, T_m, n_sm and the warp
  /// size from the device; n_b = 1 (both forms, as the authors' code);
  /// n_w = FP32 lanes per SM / warp size (the SM partitions, 4 on every
  /// current NVIDIA GPU; the authors' code uses 4); n_r* = the device's
  /// registers per thread, at most its registers per SM over the block's
  /// threads (paper), or 128 (code); n_l* = 32 bytes, a DRAM sector.
  static PsaParameters fromDevice(const DeviceDescription &device,
                                  PsaForm form);
  /// Fails, naming the field, unless every parameter is positive.
  llvm::Error verify() const;
};

/// Which penalties the analyzer applies (a disabled one is 1): the paper's
/// ablations (Table 4).
struct PsaPenalties {
  bool alpha = true;
  bool reg = true;
  bool warp = true;
  bool kernel = true;
  bool mem = true;

  /// Parses a comma-separated list of penalties to disable: `alpha`, `reg`,
  /// `warp`, `kernel`, `mem`, or `compute` (alpha, reg, warp and kernel).
  /// The empty string disables none.
  static llvm::Expected<PsaPenalties> parseDisabled(llvm::StringRef list);
};

//===----------------------------------------------------------------------===//
// The penalty formulas
//===----------------------------------------------------------------------===//

/// n_r* for blocks of `threads` threads: registerCap, at most
/// registersPerSm / (threads rounded up to whole warps) when registersPerSm
/// is positive.
double getRegisterCap(const PsaParameters &params, int64_t threads);
/// P_reg = max(n_r / n_r*, 1).
double getRegisterPenalty(double registers, double registerCap);
/// The paper's alpha = 1 + n_reg / n_com (1 when n_com is 0).
double getPaperAlpha(double registerAccesses, double flops);
/// The code's alpha = 1 + 1 / (1 + n_com / n_reg) (1 when n_reg is 0).
double getCodeAlpha(double registerAccesses, double flops);
/// P_warp = n_t / (ceil(n_t / n_w*) * n_w*).
double getWarpPenalty(int64_t threads, int64_t warpSize);
/// P_kernel (Eq. 3): B / (ceil(B / B*) * B*) with B* = n_sm * n_b when
/// B >= B*, else W / (ceil(W / W*) * W*) with W* = n_sm * n_w and W the
/// warps of the grid, counting at most n_w warps per block when
/// `capBlockWarps` (a block runs on one SM; the authors' code caps).
double getKernelPenalty(int64_t blocks, int64_t threadsPerBlock,
                        const PsaParameters &params, bool capBlockWarps);
/// P_mem = n_l / (ceil(n_l / n_l*) * n_l*), lengths in bytes.
double getMemoryPenalty(double runBytes, double transactionBytes);

//===----------------------------------------------------------------------===//
// The analyzer
//===----------------------------------------------------------------------===//

/// What the analyzer computed for one innermost statement.
struct PsaStatement {
  /// "compute", "copy<i>" or "consumer<i>".
  std::string kind;
  /// n_ops: floating-point operations of all executions (an FMA is 2).
  double flops = 0;
  /// n_m: global memory traffic, bytes (paper) or elements (code).
  double memory = 0;
  /// n_r: values a thread keeps in registers (per buffer, the elements of
  /// its thread-local spatial loops).
  double registers = 0;
  /// n_reg: register accesses of a thread (per buffer, the elements of all
  /// its thread-local loops).
  double registerAccesses = 0;
  /// n_com: operations of one thread.
  double flopsPerThread = 0;
  int64_t blocks = 1, threads = 1;
  /// The penalties as applied (1 when disabled or not applicable).
  double alpha = 1, pReg = 1, pWarp = 1, pKernel = 1;
  /// P_mem of the statement: n_m over the sum of the per-buffer n_m / P_mem.
  double pMem = 1;
  /// L_c and L_m, seconds.
  double computeSeconds = 0, memorySeconds = 0;
  /// L_c + L_m (paper) or max(L_c, L_m) (code).
  double latency = 0;
};

/// The PSA of one candidate.
struct PsaEstimate {
  std::vector<PsaStatement> statements;
  /// The sum of the statement latencies, seconds.
  double latency = 0;
};

/// Options of the analyzer.
struct PsaOptions {
  PsaForm form = PsaForm::Paper;
  PsaPenalties penalties;
  /// Whether the warp-granular P_kernel counts at most n_w warps of a block
  /// (the authors' code; the paper's "W = #warps" does not say). Both forms
  /// cap by default: uncapped, 32 blocks of 16 warps look as busy as 128
  /// SMs (docs/Pruner.md).
  bool capBlockWarps = true;
};

/// Estimates the latency of scheduled candidates from their statements.
class StaticAnalyzer {
public:
  /// An analyzer with explicit parameters (checked by analyze()).
  StaticAnalyzer(PsaParameters params, PsaOptions options)
      : params(params), options(options) {}
  /// An analyzer with the parameters of `device` for `options.form`.
  StaticAnalyzer(const DeviceDescription &device, PsaOptions options)
      : params(PsaParameters::fromDevice(device, options.form)),
        options(options) {}

  /// The PSA of `op` with its fused `consumers`, scheduled by `sketch` and
  /// `config`. Fails on invalid parameters, dynamic shapes and a config that
  /// does not fit the op.
  llvm::Expected<PsaEstimate> analyze(linalg::LinalgOp op,
                                      ArrayRef<linalg::LinalgOp> consumers,
                                      SketchAttr sketch,
                                      ConfigAttr config) const;

  const PsaParameters &getParameters() const { return params; }
  const PsaOptions &getOptions() const { return options; }

private:
  PsaParameters params;
  PsaOptions options;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_PRUNER_STATICANALYZER_H
