//===- PlaceBarriers.cpp - Barriers where threads exchange data -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Barriers.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELPLACEBARRIERS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

namespace {
struct TesselPlaceBarriersPass
    : public tessel::impl::TesselPlaceBarriersBase<TesselPlaceBarriersPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](gpu::LaunchOp launch) {
      std::string why;
      // A launch the analysis does not cover keeps its barriers.
      (void)tessel::placeBarriersByDependences(launch, why);
    });
  }
};
} // namespace
