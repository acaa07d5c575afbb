//===- Pipelines.h - Tessel pass pipelines ----------------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PIPELINES_PIPELINES_H
#define TESSEL_PIPELINES_PIPELINES_H

#include "tessel/Dialect/Tessel/Transforms/Barriers.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace tessel {

/// Options of the `tessel-to-cuda` pipeline.
struct TesselToCudaOptions : public PassPipelineOptions<TesselToCudaOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target SM architecture, sm_70 or newer"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features; by default the PTX ISA version the chip "
                     "needs (e.g. +ptx80 for sm_90)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("isa (PTX), bin (cubin, needs ptxas) or fatbin"),
      llvm::cl::init("bin")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM and ptxas optimization level"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path", llvm::cl::desc("CUDA toolkit root (for ptxas)"),
      llvm::cl::init(TESSEL_DEFAULT_CUDA_PATH)};
  PassOptions::Option<std::string> resourcesFile{
      *this, "resources-file",
      llvm::cl::desc("Write per-kernel registers, spills and shared memory "
                     "as JSON to this file"),
      llvm::cl::init("")};
  PassOptions::Option<bool> fuse{
      *this, "fuse",
      llvm::cl::desc("Fuse elementwise ops into their neighbours first "
                     "(--tessel-fuse); must match how the model was tuned"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> allowTf32{
      *this, "allow-tf32",
      llvm::cl::desc("Let tensor_core schedules of f32 contractions compute "
                     "in TF32 (inputs rounded to a 10-bit mantissa: results "
                     "differ from strict fp32); off, such a schedule is an "
                     "error"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> defaultConfigs{
      *this, "default-configs",
      llvm::cl::desc("Give unscheduled ops a default schedule"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> forwardFills{
      *this, "forward-fills",
      llvm::cl::desc("Start register accumulators from their fill's "
                     "constant instead of storing it to the output and "
                     "loading it back (--tessel-forward-fills)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> forwardAccumulators{
      *this, "forward-accumulators",
      llvm::cl::desc("Let fused epilogues read the register accumulators "
                     "instead of a shared-memory copy of the block's output "
                     "tile (--tessel-forward-accumulators)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fpContract{
      *this, "fp-contract",
      llvm::cl::desc("Fuse the kernels' multiplies and adds into FMAs "
                     "(--tessel-contract-kernel-float-ops; nvcc's -fmad)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> bufferAlignment{
      *this, "buffer-alignment",
      llvm::cl::desc("Byte alignment the kernels may assume of every buffer "
                     "they take, for vector loads and stores of global "
                     "memory; the host code checks its arguments "
                     "(docs/Alignment.md). 0: none (element accesses)"),
      llvm::cl::init(16)};
  PassOptions::Option<bool> dedupeKernels{
      *this, "dedupe-kernels",
      llvm::cl::desc("Compile kernels that differ only in their names once "
                     "(--tessel-dedupe-kernels)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> cacheDir{
      *this, "cache-dir",
      llvm::cl::desc("Compile cache directory (docs/CompileCache.md); "
                     "empty: $TESSEL_CACHE_DIR, else $XDG_CACHE_HOME/tessel, "
                     "else ~/.cache/tessel; off: no cache"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> cacheSizeMb{
      *this, "cache-size-mb",
      llvm::cl::desc("Size limit of the compile cache in MiB (least recently "
                     "used entries are removed first)"),
      llvm::cl::init(2048)};
  PassOptions::Option<bool> cacheReport{
      *this, "cache-report",
      llvm::cl::desc("Say in remarks what came from the compile cache (the "
                     "module, the kernels' PTX, their cubins)"),
      llvm::cl::init(false)};
  PassOptions::Option<BarrierPlacement> barriers{
      *this, "barriers",
      llvm::cl::desc("Where the kernels' barriers go (docs/Barriers.md)"),
      llvm::cl::init(BarrierPlacement::Dependences),
      llvm::cl::values(
          clEnumValN(BarrierPlacement::Dependences, "dependences",
                     "where one thread may read or overwrite what another "
                     "thread touched since the last barrier"),
          clEnumValN(BarrierPlacement::AfterEveryForall, "after-every-forall",
                     "after every thread forall (every copy round and "
                     "virtual thread), as upstream's thread mapping does"))};
};

/// The PTX ISA feature string (`+ptxNN`) a chip `sm_XY` needs, or failure
/// for a chip older than sm_70 or not of that form.
FailureOr<std::string> getDefaultPtxFeatures(StringRef chip);

/// Adds the passes of `tessel-to-cuda` that make the kernels (fusion,
/// default schedules, materialization, barriers, outlining) up to and
/// including the kernel-size check, without lowering them to NVVM: what
/// rejects a schedule before LLVM and ptxas see it. `options` must have
/// passed the checks of buildTesselToCudaPipeline (only `chip`, `fuse`,
/// `allow-tf32`, `default-configs`, `barriers` and `dedupe-kernels` matter
/// here).
void buildTesselToKernelsPipeline(OpPassManager &pm,
                                  const TesselToCudaOptions &options);

/// Adds the passes that take a module of linalg ops (on tensors or buffers)
/// to a module whose kernels are `gpu.binary` ops. Fails, writing
/// "error: ..." to `errors`, on an unsupported chip or format. Unless
/// `cache-dir` resolves to "off", the whole pipeline runs inside one pass
/// that looks the compiled module up in the compile cache first, and the
/// translation to PTX and ptxas look each kernel up
/// (docs/CompileCache.md).
LogicalResult buildTesselToCudaPipeline(OpPassManager &pm,
                                        const TesselToCudaOptions &options,
                                        llvm::raw_ostream &errors = llvm::errs());

/// Registers `--tessel-to-cuda`.
void registerTesselPipelines();

} // namespace tessel
} // namespace mlir

#endif // TESSEL_PIPELINES_PIPELINES_H
