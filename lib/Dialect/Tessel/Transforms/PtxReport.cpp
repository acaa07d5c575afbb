//===- PtxReport.cpp - What a kernel's PTX executes, counted --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/PtxReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <vector>

using namespace mlir;
using namespace mlir::tessel;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

/// The bits of a PTX type suffix (`f32`, `b16`, `u64`, `b128`), or 0.
static int64_t getTypeBits(StringRef type) {
  if (type.size() < 2 || !llvm::is_contained(StringRef("bfsu"), type[0]))
    return 0;
  int64_t bits = 0;
  if (type.drop_front().getAsInteger(10, bits))
    return 0;
  return bits;
}

/// The label a branch instruction targets, or "".
static StringRef getBranchTarget(StringRef instruction) {
  if (!instruction.starts_with("bra"))
    return "";
  StringRef target = instruction.rsplit(' ').second.trim();
  target.consume_back(";");
  return target.trim();
}

/// The counts of one kernel's body lines.
static PtxCounts countKernel(ArrayRef<StringRef> lines) {
  PtxCounts counts = {{"bar_sync", 0},
                      {"bar_sync_in_loops", 0},
                      {"fma_f32", 0},
                      {"fma_f32_in_loops", 0},
                      {"ld_shared_in_loops", 0}};
  // Instructions without their predicate; labels by line.
  std::vector<StringRef> instructions(lines.size());
  llvm::StringMap<size_t> labels;
  for (auto [i, line] : llvm::enumerate(lines)) {
    StringRef text = line.trim();
    if (text.starts_with("$") && text.ends_with(":")) {
      labels[text.drop_back()] = i;
      continue;
    }
    if (text.starts_with("@"))
      text = text.split(' ').second.trim();
    instructions[i] = text;
  }
  // A loop: from a label to a later branch back to it.
  std::vector<bool> inLoop(lines.size(), false);
  for (auto [i, text] : llvm::enumerate(instructions)) {
    StringRef target = getBranchTarget(text);
    auto it = labels.find(target);
    if (target.empty() || it == labels.end() || it->second > i)
      continue;
    for (size_t j = it->second; j <= i; ++j)
      inLoop[j] = true;
  }
  for (auto [i, text] : llvm::enumerate(instructions)) {
    if (text.empty() || text.starts_with(".") || text.starts_with("//"))
      continue;
    StringRef opcode = text.split(' ').first.split('\t').first;
    opcode.consume_back(";");
    SmallVector<StringRef> parts;
    opcode.split(parts, '.');
    StringRef op = parts.front();
    auto count = [&](const std::string &key) {
      ++counts[key];
      if (inLoop[i] && (key == "bar_sync" || key == "fma_f32"))
        ++counts[key + "_in_loops"];
    };
    if (op == "bar" || op == "barrier") {
      if (parts.size() > 1 && (parts[1] == "sync" || parts[1] == "cta"))
        count("bar_sync");
      continue;
    }
    if ((op == "ld" || op == "st") && parts.size() > 2) {
      StringRef space = parts[1].split(':').first;
      if (space != "global" && space != "shared")
        continue;
      int64_t lanes = 1;
      for (StringRef part : parts)
        if (part == "v2" || part == "v4" || part == "v8")
          lanes = part.back() - '0';
      int64_t bits = lanes * getTypeBits(parts.back());
      count((op + "_" + space + "_" + std::to_string(bits)).str());
      if (op == "ld" && space == "shared" && inLoop[i])
        ++counts["ld_shared_in_loops"];
      continue;
    }
    if (op == "cp" && parts.size() > 2 && parts[1] == "async" &&
        (parts[2] == "ca" || parts[2] == "cg")) {
      count("cp_async");
      continue;
    }
    if (op == "fma" && parts.back() == "f32") {
      count("fma_f32");
      continue;
    }
    if (op == "mul" && parts.back() == "f32") {
      count("mul_f32");
      continue;
    }
    if (op == "mma")
      count("mma");
  }
  return counts;
}

std::map<std::string, PtxCounts> tessel::countPtxKernels(StringRef ptx) {
  SmallVector<StringRef> lines;
  ptx.split(lines, '\n');
  std::map<std::string, PtxCounts> kernels;
  for (size_t i = 0; i < lines.size(); ++i) {
    StringRef line = lines[i].trim();
    size_t entry = line.find(".entry ");
    if (entry == StringRef::npos)
      continue;
    StringRef name = line.drop_front(entry + 7).trim();
    name = name.take_until([](char c) { return c == '(' || c == ' '; });
    size_t end = i + 1;
    while (end < lines.size() && !lines[end].contains(".entry "))
      ++end;
    kernels[name.str()] =
        countKernel(ArrayRef<StringRef>(lines).slice(i + 1, end - i - 1));
    i = end - 1;
  }
  return kernels;
}

double tessel::getFmaPerSharedLoad(const PtxCounts &counts) {
  auto get = [&](const char *key) -> int64_t {
    auto it = counts.find(key);
    return it == counts.end() ? 0 : it->second;
  };
  int64_t loads = get("ld_shared_in_loops");
  return loads ? static_cast<double>(get("fma_f32_in_loops")) / loads : 0;
}
