//===- PtxReport.h - What a kernel's PTX executes, counted ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The static kernel report (issue 41, item 9): per kernel of a PTX module,
// the instructions that made Tessel's kernels slow or fast on the GPU,
// counted in the text ptxas assembles. Counts (each a key of the report):
//
//   bar_sync, bar_sync_in_loops        barriers; in loops: the instructions
//                                      between a label and a later branch
//                                      back to it (the main loop's steps)
//   ld_global_<bits>, st_global_<bits> global accesses by width (a vector's
//   ld_shared_<bits>, st_shared_<bits> elements times their bits: 128 for
//                                      `ld.global.v4.f32`)
//   cp_async                           asynchronous copies to shared memory
//   fma_f32, fma_f32_in_loops          f32 fused multiply-adds
//   mul_f32                            unfused f32 multiplies
//   mma                                tensor-core `mma.sync`
//   ld_shared_in_loops                 shared loads in loops (FMA per shared
//                                      load = fma_f32_in_loops / this)
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_PTXREPORT_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_PTXREPORT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>

namespace mlir {
namespace tessel {

/// Counts by name (see above); absent keys are 0.
using PtxCounts = std::map<std::string, int64_t>;

/// The counts of every `.entry` function of `ptx`, by kernel name.
std::map<std::string, PtxCounts> countPtxKernels(llvm::StringRef ptx);

/// FMAs per shared load in the kernel's loops (fma_f32_in_loops /
/// ld_shared_in_loops); 0 when its loops load nothing from shared memory.
double getFmaPerSharedLoad(const PtxCounts &counts);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_PTXREPORT_H
