//===- KernelResources.cpp - What ptxas reports about a kernel ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/KernelResources.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::tessel;

DictionaryAttr KernelResources::toAttribute(MLIRContext *ctx) const {
  Builder b(ctx);
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("registers", b.getI64IntegerAttr(registers)),
      b.getNamedAttr("shared_memory_bytes",
                     b.getI64IntegerAttr(sharedMemoryBytes)),
      b.getNamedAttr("spill_load_bytes", b.getI64IntegerAttr(spillLoadBytes)),
      b.getNamedAttr("spill_store_bytes",
                     b.getI64IntegerAttr(spillStoreBytes)),
      b.getNamedAttr("stack_bytes", b.getI64IntegerAttr(stackBytes)),
  };
  if (dynamicSharedMemoryBytes != 0)
    entries.push_back(
        b.getNamedAttr("dynamic_shared_memory_bytes",
                       b.getI64IntegerAttr(dynamicSharedMemoryBytes)));
  if (!ptx.empty()) {
    SmallVector<NamedAttribute> counts;
    for (const auto &[key, value] : ptx)
      counts.push_back(b.getNamedAttr(key, b.getI64IntegerAttr(value)));
    entries.push_back(b.getNamedAttr("ptx", b.getDictionaryAttr(counts)));
  }
  return b.getDictionaryAttr(entries);
}

llvm::json::Object KernelResources::toJSON() const {
  llvm::json::Object object{{"kernel", name},
                            {"registers", registers},
                            {"shared_memory_bytes", sharedMemoryBytes},
                            {"spill_store_bytes", spillStoreBytes},
                            {"spill_load_bytes", spillLoadBytes},
                            {"stack_bytes", stackBytes}};
  if (dynamicSharedMemoryBytes != 0)
    object["dynamic_shared_memory_bytes"] = dynamicSharedMemoryBytes;
  if (!ptx.empty()) {
    llvm::json::Object counts;
    for (const auto &[key, value] : ptx)
      counts[key] = value;
    object["ptx"] = std::move(counts);
  }
  return object;
}

KernelResources KernelResources::fromAttribute(StringRef name,
                                               DictionaryAttr dict) {
  auto get = [&](StringRef key) -> int64_t {
    if (auto attr = dict.getAs<IntegerAttr>(key))
      return attr.getInt();
    return 0;
  };
  KernelResources r;
  r.name = name.str();
  r.registers = get("registers");
  r.sharedMemoryBytes = get("shared_memory_bytes");
  r.spillLoadBytes = get("spill_load_bytes");
  r.spillStoreBytes = get("spill_store_bytes");
  r.stackBytes = get("stack_bytes");
  r.dynamicSharedMemoryBytes = get("dynamic_shared_memory_bytes");
  if (auto counts = dict.getAs<DictionaryAttr>("ptx"))
    for (NamedAttribute entry : counts)
      if (auto value = dyn_cast<IntegerAttr>(entry.getValue()))
        r.ptx[entry.getName().str()] = value.getInt();
  return r;
}

std::vector<KernelResources> tessel::parsePtxasLog(StringRef log) {
  std::vector<KernelResources> kernels;
  llvm::Regex entry("Compiling entry function '([^']+)'");
  llvm::Regex frame("([0-9]+) bytes stack frame, ([0-9]+) bytes spill "
                    "stores, ([0-9]+) bytes spill loads");
  llvm::Regex regs("Used ([0-9]+) registers");
  llvm::Regex smem("([0-9]+) bytes smem");
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  SmallVector<StringRef> m;
  for (StringRef line : lines) {
    if (entry.match(line, &m)) {
      kernels.push_back(KernelResources{});
      kernels.back().name = m[1].str();
      continue;
    }
    if (kernels.empty())
      continue;
    KernelResources &k = kernels.back();
    if (frame.match(line, &m)) {
      llvm::to_integer(m[1], k.stackBytes);
      llvm::to_integer(m[2], k.spillStoreBytes);
      llvm::to_integer(m[3], k.spillLoadBytes);
    }
    if (regs.match(line, &m))
      llvm::to_integer(m[1], k.registers);
    if (smem.match(line, &m))
      llvm::to_integer(m[1], k.sharedMemoryBytes);
  }
  return kernels;
}
