//===- Reference.h - Inputs and expected outputs of a function --*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A measured kernel is only timed once its outputs match the unscheduled
// function's on the same random inputs. The reference runs the function, with
// every schedule annotation dropped, on the CPU through MLIR's execution
// engine.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_MEASURE_REFERENCE_H
#define TESSEL_TUNING_MEASURE_REFERENCE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// A dense row-major host array.
struct HostTensor {
  /// "f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64" (see getDTypeName).
  std::string dtype;
  SmallVector<int64_t> shape;
  std::vector<uint8_t> data;

  int64_t getNumElements() const;
};

/// The inputs of a function and the outputs the unscheduled function
/// computes from them.
struct ReferenceData {
  std::vector<HostTensor> inputs;
  std::vector<HostTensor> outputs;
};

/// Random inputs for arguments of `types` (static tensors or memrefs):
/// floats uniform in +-[0.5, 1.5) (never zero), integers in [1, 4].
/// Deterministic for a seed.
llvm::Expected<std::vector<HostTensor>> makeRandomInputs(TypeRange types,
                                                         uint64_t seed);

/// Runs `funcName` of a clone of `source` (linalg on tensors, as given to
/// `--tessel-to-cuda`; schedule annotations are ignored) on the CPU and
/// returns its results.
llvm::Expected<std::vector<HostTensor>>
runReferenceOnCpu(ModuleOp source, llvm::StringRef funcName,
                  llvm::ArrayRef<HostTensor> inputs);

/// makeRandomInputs followed by runReferenceOnCpu.
llvm::Expected<ReferenceData> computeReference(ModuleOp source,
                                               llvm::StringRef funcName,
                                               uint64_t seed);

/// Tolerances for comparing a GPU result of `dtype` with the reference:
/// |got - want| <= atol + rtol * |want|, where atol scales with the largest
/// reference magnitude (sums of many products lose low bits in any order).
struct Tolerance {
  double rtol;
  double atol;
};
/// `tf32`: the result was computed by TF32 tensor-core instructions
/// (`--allow-tf32`), whose inputs keep 10 mantissa bits, as f16's do: an f32
/// result then gets a tolerance for that precision, not for f32's.
Tolerance getTolerance(const HostTensor &expected, bool tf32 = false);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_MEASURE_REFERENCE_H
