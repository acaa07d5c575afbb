//===- ExternDynamicSharedMemory.cpp - extern __shared__ for NVPTX --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELEXTERNDYNAMICSHAREDMEMORY
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

/// The symbol prefix of upstream's dynamic shared memory globals.
static constexpr StringLiteral kDynamicSharedPrefix = "__dynamic_shmem__";

/// The shared-memory address space of NVVM.
static constexpr unsigned kSharedAddressSpace = 3;

namespace {
struct TesselExternDynamicSharedMemoryPass
    : public tessel::impl::TesselExternDynamicSharedMemoryBase<
          TesselExternDynamicSharedMemoryPass> {
  void runOnOperation() override {
    getOperation()->walk([](LLVM::GlobalOp global) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (!global.getSymName().starts_with(kDynamicSharedPrefix) ||
          global.getAddrSpace() != kSharedAddressSpace || !array ||
          array.getNumElements() != 0)
        return;
      global.setLinkage(LLVM::Linkage::External);
    });
  }
};
} // namespace
