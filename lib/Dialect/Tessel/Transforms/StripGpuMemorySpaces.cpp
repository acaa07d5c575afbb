//===- StripGpuMemorySpaces.cpp - Drop GPU address spaces -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/Dialect/Tessel/Transforms/PipelineStaging.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELSTRIPGPUMEMORYSPACES
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

namespace {
struct TesselStripGpuMemorySpacesPass
    : public tessel::impl::TesselStripGpuMemorySpacesBase<
          TesselStripGpuMemorySpacesPass> {
  using Base::Base;

  void runOnOperation() override {
    // A pipelined staging loop's waits and barriers mean nothing to one
    // thread running the loops in order.
    tessel::eraseStagingSynchronization(getOperation());
    AttrTypeReplacer replacer;
    replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
      if (!isa_and_nonnull<gpu::AddressSpaceAttr>(type.getMemorySpace()))
        return std::nullopt;
      return MemRefType::get(type.getShape(), type.getElementType(),
                             type.getLayout());
    });
    replacer.recursivelyReplaceElementsIn(getOperation(),
                                          /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
};
} // namespace
