//===- DedupeKernels.cpp - Compile each distinct kernel once --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELDEDUPEKERNELS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

/// The module attribute holding each kernel module's facts (OutlineKernels).
static constexpr StringLiteral kKernelFactsAttr = "tessel.kernel_facts";

/// The symbols `module` defines, in order.
static SmallVector<StringAttr> getDefinedSymbols(gpu::GPUModuleOp module) {
  SmallVector<StringAttr> symbols;
  for (Operation &op : module.getBody()->getOperations())
    if (auto name = op.getAttrOfType<StringAttr>(
            SymbolTable::getSymbolAttrName()))
      symbols.push_back(name);
  return symbols;
}

/// The text of `module` with its own name and the symbols it defines
/// renamed to their positions: equal for modules that differ only in names.
static std::string getCanonicalText(gpu::GPUModuleOp module) {
  Operation *copy = module->clone();
  auto clone = cast<gpu::GPUModuleOp>(copy);
  SmallVector<StringAttr> symbols = getDefinedSymbols(clone);
  MLIRContext *ctx = module.getContext();
  for (auto [index, name] : llvm::enumerate(symbols)) {
    auto renamed = StringAttr::get(ctx, "tessel_symbol_" + Twine(index));
    if (failed(SymbolTable::replaceAllSymbolUses(name, renamed,
                                                 &clone.getBodyRegion())))
      continue;
    for (Operation &op : clone.getBody()->getOperations())
      if (op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()) ==
          name)
        SymbolTable::setSymbolName(&op, renamed);
  }
  SymbolTable::setSymbolName(clone, StringAttr::get(ctx, "tessel_module"));
  std::string text;
  llvm::raw_string_ostream os(text);
  clone->print(os, OpPrintingFlags().printGenericOpForm());
  copy->destroy();
  return text;
}

namespace {
struct TesselDedupeKernelsPass
    : public tessel::impl::TesselDedupeKernelsBase<TesselDedupeKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    llvm::StringMap<gpu::GPUModuleOp> firstOfText;
    // Launch targets of erased modules -> the kept module's.
    DenseMap<SymbolRefAttr, SymbolRefAttr> redirect;
    SmallVector<gpu::GPUModuleOp> duplicates;
    for (gpu::GPUModuleOp kernels : module.getOps<gpu::GPUModuleOp>()) {
      auto [it, inserted] =
          firstOfText.try_emplace(getCanonicalText(kernels), kernels);
      if (inserted)
        continue;
      gpu::GPUModuleOp kept = it->second;
      for (auto [from, to] : llvm::zip_equal(getDefinedSymbols(kernels),
                                             getDefinedSymbols(kept)))
        redirect[SymbolRefAttr::get(kernels.getNameAttr(),
                                    {FlatSymbolRefAttr::get(from)})] =
            SymbolRefAttr::get(kept.getNameAttr(),
                               {FlatSymbolRefAttr::get(to)});
      duplicates.push_back(kernels);
    }
    if (duplicates.empty())
      return;
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto it = redirect.find(launch.getKernel());
      if (it != redirect.end())
        launch.setKernelAttr(it->second);
    });
    if (auto facts = module->getAttrOfType<DictionaryAttr>(kKernelFactsAttr)) {
      NamedAttrList kept(facts);
      for (gpu::GPUModuleOp duplicate : duplicates)
        kept.erase(duplicate.getNameAttr());
      module->setAttr(kKernelFactsAttr, kept.getDictionary(ctx));
    }
    for (gpu::GPUModuleOp duplicate : duplicates)
      duplicate.erase();
  }
};
} // namespace
