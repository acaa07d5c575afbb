//===- ScheduleScript.cpp - Schedules as upstream transform scripts -------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The script is generated as text: it is what users read when they ask for
// the schedule (`--tessel-emit-transform-script`), and what the
// materialization pass parses and interprets. Every number that comes from a
// config is a `transform.tune.knob` with `selected`; numbers derived from
// several knobs (trip counts, thread counts) are literals.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/ScheduleScript.h"
#include "ReductionScript.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/IR/TileShape.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

static int64_t product(ArrayRef<int64_t> values) {
  int64_t p = 1;
  for (int64_t v : values)
    p *= v;
  return p;
}

static SmallVector<int64_t> divisors(int64_t n) {
  SmallVector<int64_t> result;
  for (int64_t d = 1; d <= n; ++d)
    if (n % d == 0)
      result.push_back(d);
  return result;
}

static std::string joinInts(ArrayRef<int64_t> values) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  return s;
}

/// A tile-size list whose entries are knob params or literal zeros.
struct SizeList {
  SmallVector<std::string> entries;
  unsigned numParams = 0;

  bool allZero() const {
    return llvm::all_of(entries, [](const std::string &e) { return e == "0"; });
  }
  unsigned numNonZero() const {
    return llvm::count_if(entries,
                          [](const std::string &e) { return e != "0"; });
  }
  std::string str() const {
    return "[" + llvm::join(entries, ", ") + "]";
  }
  /// The operand types of a tiling op taking `target` and these sizes.
  std::string types() const {
    std::string s = "!transform.any_op";
    for (unsigned i = 0; i < numParams; ++i)
      s += ", !transform.param<i64>";
    return s;
  }
};

/// Writes the script of a set of scheduled ops.
class ScriptWriter {
public:
  ScriptWriter(ArrayRef<ScheduledOp> ops, const ScheduleScriptOptions &options)
      : ops(ops), options(options), os(text) {}

  std::string write(ScheduleScriptPart part);

private:
  // Level trip counts of loop `l` of op `op`.
  ArrayRef<int64_t> levels(const ScheduledOp &op, unsigned l) const {
    return op.config.getLoopTiles(l);
  }
  bool isMultiLevel(const ScheduledOp &op) const {
    return op.sketch.getKind() == SketchKind::MultiLevelTiling;
  }
  bool isTensorCore(const ScheduledOp &op) const {
    return op.sketch.getKind() == SketchKind::TensorCore;
  }
  /// Whether `op` has a shared-memory staging loop over its reductions.
  bool hasStagingLoop(const ScheduledOp &op) const {
    return isMultiLevel(op) || isTensorCore(op);
  }

  std::string fresh(StringRef prefix) {
    return ("%" + prefix + std::to_string(counter++)).str();
  }
  void line(const Twine &t) { os << "    " << t << "\n"; }

  /// Emits a knob and returns its SSA name; knobs are cached by name.
  std::string knob(const ScheduledOp &op, StringRef name, int64_t value,
                   ArrayRef<int64_t> options);
  /// Tile size of loop `l` covering the levels from `firstLevel` inward.
  int64_t innerTile(const ScheduledOp &op, unsigned l,
                    unsigned firstLevel) const {
    return product(levels(op, l).drop_front(firstLevel));
  }
  /// Whether loop `l` of `op` has boundary blocks: its tiles cover the
  /// extent without dividing it (injective sketches only).
  bool hasBoundaryBlocks(const ScheduledOp &op, unsigned l) const {
    return innerTile(op, l, 0) != op.nest.extents[l];
  }
  std::string tileKnob(const ScheduledOp &op, unsigned l, unsigned firstLevel,
                       StringRef levelName) {
    int64_t tile = innerTile(op, l, firstLevel);
    SmallVector<int64_t> domain = divisors(op.nest.extents[l]);
    if (!llvm::is_contained(domain, tile))
      domain.insert(llvm::upper_bound(domain, tile), tile);
    return knob(op, llvm::formatv("d{0}.{1}", l, levelName).str(), tile,
                domain);
  }

  /// Sizes for a op whose loop `j` runs op loop `loopMap[j]`, with entry
  /// `size(l)` (empty = 0) for op loop l.
  SizeList sizesFor(ArrayRef<unsigned> loopMap,
                    function_ref<std::string(unsigned)> size) {
    SizeList list;
    for (unsigned l : loopMap) {
      std::string e = size(l);
      if (e.empty()) {
        list.entries.push_back("0");
      } else {
        list.entries.push_back(e);
        ++list.numParams;
      }
    }
    return list;
  }

  std::string linearMapping(StringRef kind, unsigned count) {
    SmallVector<std::string> dims;
    for (unsigned i = 0; i < count; ++i)
      dims.push_back(
          llvm::formatv("#gpu.{0}<linear_dim_{1}>", kind, count - 1 - i));
    return "[" + llvm::join(dims, ", ") + "]";
  }
  /// The mapping of a forall tiling `sizes` of an op whose dims are the
  /// scheduled op's loops `loopMap`: the op's innermost loop is the fastest
  /// linear dim, whatever the order of the dims, so that a fused init or
  /// consumer gives each thread the elements the op gives it (an output
  /// that permutes the loops: a depthwise nchw_chw convolution's).
  std::string linearMapping(StringRef kind, ArrayRef<unsigned> loopMap,
                            const SizeList &sizes) {
    SmallVector<unsigned> tiled;
    for (auto [l, entry] : llvm::zip(loopMap, sizes.entries))
      if (entry != "0")
        tiled.push_back(l);
    SmallVector<std::string> dims;
    for (unsigned l : tiled) {
      unsigned faster = llvm::count_if(tiled, [&](unsigned o) { return o > l; });
      dims.push_back(llvm::formatv("#gpu.{0}<linear_dim_{1}>", kind, faster));
    }
    return "[" + llvm::join(dims, ", ") + "]";
  }

  std::string tileForall(StringRef target, const SizeList &sizes,
                         StringRef kind, std::string &forall);
  /// `tile_using_forall` of `target` by `sizes` as `clause` ("tile_sizes"
  /// or "num_threads") with `mapping`; sets `forall` to the loop's handle
  /// and returns the tiled op's.
  std::string tileForallMapped(StringRef target, StringRef clause,
                               const SizeList &sizes, StringRef mapping,
                               std::string &forall);
  std::string tileFor(StringRef target, const SizeList &sizes,
                      SmallVectorImpl<std::string> &loops);
  /// Marks `loops` for full unrolling: `late` loops are unrolled after
  /// the accumulators are hoisted out of them.
  void annotateUnroll(ArrayRef<std::string> loops,
                      ArrayRef<int64_t> tripCounts, bool late = false);
  std::string match(StringRef root, int64_t anchor) {
    std::string h = fresh("op");
    line(llvm::formatv("{0} = transform.structured.match attributes "
                       "{{tessel.anchor = {1} : i64} in {2} : "
                       "(!transform.any_op) -> !transform.any_op",
                       h, anchor, root));
    return h;
  }

  // Identity loop maps.
  SmallVector<unsigned> identity(const ScheduledOp &op) const {
    return llvm::to_vector(llvm::seq<unsigned>(0, op.nest.size()));
  }

  void writeKnobs(const ScheduledOp &op);
  void writeBlockTiling(const ScheduledOp &op, unsigned index);
  void writeThreadTiling(const ScheduledOp &op, unsigned index);
  /// Splits each of `loads` (per shared operand, in `sketch.getShared()`
  /// order, a copy into the shared tile or an inlined producer writing it)
  /// into coalesced thread-level chunks.
  void writeCooperativeLoads(const ScheduledOp &op,
                             ArrayRef<std::string> loads);
  /// The tile sizes of the shared-memory staging loops of `op` (the first
  /// reduction level; a one-iteration loop when the sketch stages operands
  /// but the whole reduction fits one stage).
  SizeList stageSizes(const ScheduledOp &op);
  /// The number of staging loops with more than one iteration.
  int64_t numStageLoops(const ScheduledOp &op) const {
    return getMultiStepStagingLoops(getTileVectors(op.config), op.nest).size();
  }
  /// On tensors: fuses the inlined producers of `op` into its block forall
  /// `forall`, tiles `tiledOp` (the op inside the forall) into the staging
  /// loops and fuses the producers into them, each writing a workgroup
  /// buffer: the shared tile of its operand.
  void writeInlinedProducers(const ScheduledOp &op, StringRef tiledOp,
                             std::string &forall);
  /// Tiles `target` (running op loops `loopMap`) into the virtual-thread
  /// loops and the thread forall of `op`; returns the thread-level op.
  std::string writeThreadLevel(const ScheduledOp &op, StringRef target,
                               ArrayRef<unsigned> loopMap);
  /// Tiles `target` (running op loops `loopMap`) of a tensor_core `op` into
  /// its warp forall, the steps of one stage and the mma tiles of a warp;
  /// returns the op of one `mma.sync` shape.
  std::string writeWarpLevel(const ScheduledOp &op, StringRef target,
                             ArrayRef<unsigned> loopMap);
  /// How a loop level created by `tileLevelAsLoops` is unrolled.
  enum class UnrollMode {
    /// Always, before accumulators are hoisted (virtual threads, S3).
    Always,
    /// After hoisting, when the levels' total trip count is within the
    /// config's unroll setting (R1).
    LateWithinBudget,
  };
  /// Turns level `level` of the space (or reduction) loops of `op` into
  /// `scf.for` loops around `target` (which runs op loops `loopMap`);
  /// returns the tiled op.
  std::string tileLevelAsLoops(const ScheduledOp &op, StringRef target,
                               ArrayRef<unsigned> loopMap, bool reduction,
                               unsigned level, StringRef knobName,
                               UnrollMode unroll);
  void writeGpuMapping();
  void writeRegisterLevelCleanup();
  /// Writes `result = ` the hoisting of redundant vector transfers in the
  /// functions `funcs`, kernel by kernel in scripts of more than one op.
  void hoistVectorTransfers(StringRef result, StringRef funcs);
  void writeTilingPart();
  void writeMappingPart();
  /// Emits a match of all functions and returns its handle.
  std::string matchFuncs();
  /// Rewrites the register-level tiles of the ops that read windows
  /// (ScheduledOp::readsWindows) to read strided views.
  void rewriteWindowAccesses();
  /// Vectorizes every linalg op in `funcs`.
  void vectorize(StringRef funcs);

  bool keepsAccumulatorInRegisters(const ScheduledOp &op) const {
    return (isMultiLevel(op) && op.sketch.getRegisterAccumulator() &&
            op.vectorizable) ||
           isTensorCore(op);
  }
  /// A fresh handle to all kernels that keep (or do not keep) their
  /// accumulators in registers: one match for many kernels, since each
  /// match walks the whole module.
  std::string matchKernelClass(bool registers) {
    std::string h = fresh("launches");
    line(llvm::formatv("{0} = transform.structured.match attributes "
                       "{{{1} = {2} : i64} in {3} : "
                       "(!transform.any_op) -> !transform.any_op",
                       h, TesselDialect::kAccumulatorsAttrName,
                       registers ? 1 : 0, root));
    return h;
  }

  int64_t threadsOf(const ScheduledOp &op) const {
    return getThreadsPerBlock(op.sketch, op.config, op.nest);
  }
  int64_t blocksOf(const ScheduledOp &op) const {
    return getNumBlocks(op.sketch, op.config, op.nest);
  }
  /// Block count of space loop l (1 for reductions).
  int64_t blockCount(const ScheduledOp &op, unsigned l) const {
    return op.nest.isReduction[l] ? 1 : levels(op, l).front();
  }

  /// Calls `write` with a sink that writes into this script.
  template <typename WriteFn>
  auto withSink(WriteFn write) {
    auto freshFn = [&](StringRef prefix) { return fresh(prefix); };
    auto lineFn = [&](const Twine &t) { line(t); };
    auto knobFn = [&](const ScheduledOp &op, StringRef name, int64_t value,
                      ArrayRef<int64_t> domain) {
      return knob(op, name, value, domain);
    };
    auto unrollFn = [&](StringRef loop, int64_t trips) {
      annotateUnroll({loop.str()}, {trips}, /*late=*/true);
    };
    ScriptSink sink{freshFn, lineFn, knobFn, unrollFn};
    return write(sink);
  }

  ArrayRef<ScheduledOp> ops;
  ScheduleScriptOptions options;
  std::string text;
  llvm::raw_string_ostream os;
  unsigned counter = 0;
  /// The handle of the payload root (changes with bufferization).
  std::string root = "%root";
  /// Knob SSA names by qualified name.
  llvm::StringMap<std::string> knobs;
  /// Per op: the handle of its block-level forall after bufferization.
  SmallVector<std::string> blockForalls;
  /// Per op, the handle of its staging loop when its config pipelines it
  /// (`stages` > 1), else empty.
  SmallVector<std::string> pipelinedLoops;
  /// Distinct trip counts of loops marked for full unrolling.
  llvm::SmallSetVector<int64_t, 4> unrollCounts;
  /// The same for loops unrolled after hoisting.
  llvm::SmallSetVector<int64_t, 4> lateUnrollCounts;
};

} // namespace

std::string ScriptWriter::knob(const ScheduledOp &op, StringRef name,
                               int64_t value, ArrayRef<int64_t> domain) {
  std::string qualified = llvm::formatv("op{0}.{1}", op.anchor, name).str();
  auto it = knobs.find(qualified);
  if (it != knobs.end())
    return it->second;
  std::string h = fresh("knob");
  line(llvm::formatv("{0} = transform.tune.knob<\"{1}\"> = {2} from options "
                     "= [{3}] -> !transform.param<i64>",
                     h, qualified, value, joinInts(domain)));
  knobs[qualified] = h;
  return h;
}

std::string ScriptWriter::tileForall(StringRef target, const SizeList &sizes,
                                     StringRef kind, std::string &forall) {
  return tileForallMapped(target, "tile_sizes", sizes,
                          linearMapping(kind, sizes.numNonZero()), forall);
}

std::string ScriptWriter::tileForallMapped(StringRef target, StringRef clause,
                                           const SizeList &sizes,
                                           StringRef mapping,
                                           std::string &forall) {
  std::string tiled = fresh("tiled"), loop = fresh("forall");
  line(llvm::formatv(
      "{0}, {1} = transform.structured.tile_using_forall {2} {3} {4} "
      "(mapping = {5}) : ({6}) -> (!transform.any_op, !transform.any_op)",
      tiled, loop, target, clause, sizes.str(), mapping, sizes.types()));
  forall = loop;
  return tiled;
}

std::string ScriptWriter::tileFor(StringRef target, const SizeList &sizes,
                                  SmallVectorImpl<std::string> &loops) {
  std::string tiled = fresh("tiled");
  std::string results = tiled;
  std::string resultTypes = "!transform.any_op";
  for (unsigned i = 0, e = sizes.numNonZero(); i < e; ++i) {
    loops.push_back(fresh("loop"));
    results += ", " + loops.back();
    resultTypes += ", !transform.any_op";
  }
  line(llvm::formatv("{0} = transform.structured.tile_using_for {1} "
                     "tile_sizes {2} : ({3}) -> ({4})",
                     results, target, sizes.str(), sizes.types(),
                     resultTypes));
  return tiled;
}

void ScriptWriter::annotateUnroll(ArrayRef<std::string> loops,
                                  ArrayRef<int64_t> tripCounts, bool late) {
  for (auto [loop, trips] : llvm::zip(loops, tripCounts)) {
    if (trips <= 1)
      continue;
    std::string p = fresh("trips");
    line(llvm::formatv("{0} = transform.param.constant {1} : i64 -> "
                       "!transform.param<i64>",
                       p, trips));
    line(llvm::formatv("transform.annotate {0} \"{1}\" = {2} : "
                       "!transform.any_op, !transform.param<i64>",
                       loop,
                       late ? TesselDialect::kUnrollLateAttrName
                            : TesselDialect::kUnrollAttrName,
                       p));
    (late ? lateUnrollCounts : unrollCounts).insert(trips);
  }
}

void ScriptWriter::writeKnobs(const ScheduledOp &op) {
  line(llvm::formatv("// op {0}: {1} \"{2}\", {3} threads per block, {4} "
                     "blocks",
                     op.anchor, stringifySketchKind(op.sketch.getKind()),
                     op.sketch.getStructure(), threadsOf(op), blocksOf(op)));
  knob(op, "unroll", op.config.getUnroll(), {0, 16, 64, 512, 1024});
  if (op.config.getStages() > 1)
    knob(op, "stages", op.config.getStages(),
         llvm::to_vector(llvm::seq_inclusive<int64_t>(1, kMaxPipelineStages)));
}

void ScriptWriter::writeBlockTiling(const ScheduledOp &op, unsigned index) {
  // Space loops with more than one block get a block tile; the others
  // stay whole (tile size 0) so no trip-count-1 dims reach the mapping.
  auto blockSize = [&](unsigned l) -> std::string {
    if (op.nest.isReduction[l] || blockCount(op, l) == 1)
      return "";
    return tileKnob(op, l, 1, "block_tile");
  };
  bool singleBlock = blocksOf(op) == 1;
  // A single-block op still needs one forall to become a kernel: tile its
  // first space loop by its full extent.
  unsigned firstSpace =
      llvm::find(op.nest.isReduction, false) - op.nest.isReduction.begin();
  auto sizeOrForced = [&](unsigned l) -> std::string {
    if (singleBlock && l == firstSpace)
      return tileKnob(op, l, 1, "block_tile");
    return blockSize(l);
  };
  std::string anchor = match(root, op.anchor);
  std::string forall;
  if (op.consumerAnchors.empty()) {
    std::string tiled = tileForall(anchor, sizesFor(identity(op), sizeOrForced),
                                   "block", forall);
    if (op.initAnchor) {
      // The fill of the init (getKernelInitFill): computed in the block, in
      // place in the output, by the threads that then accumulate into it.
      std::string fused = fresh("fused"), next = fresh("forall");
      line(llvm::formatv(
          "{0}, {1} = transform.structured.fuse_into_containing_op {2} into "
          "{3} : (!transform.any_op, !transform.any_op) -> "
          "(!transform.any_op, !transform.any_op)",
          fused, next, match(root, *op.initAnchor), forall));
      forall = next;
    }
    if (!op.inlinedAnchors.empty())
      writeInlinedProducers(op, tiled, forall);
    if (isCrossThreadReduction(op))
      withSink(
          [&](ScriptSink &s) { writeCrossThreadSplit(s, op, tiled, forall); });
    return;
  }
  SmallVector<std::string> consumers;
  for (int64_t c : op.consumerAnchors)
    consumers.push_back(match(root, c));
  tileForall(consumers.back(), sizesFor(op.consumerLoops.back(), sizeOrForced),
             "block", forall);
  SmallVector<std::string> producers(consumers.begin(),
                                     std::prev(consumers.end()));
  std::reverse(producers.begin(), producers.end());
  producers.push_back(anchor);
  producers.push_back(match(root, *op.initAnchor));
  std::string tiledAnchor;
  for (const std::string &producer : producers) {
    std::string fused = fresh("fused"), next = fresh("forall");
    if (&producer == &producers[producers.size() - 2])
      tiledAnchor = fused;
    line(llvm::formatv("{0}, {1} = transform.structured.fuse_into_containing_op "
                       "{2} into {3} : (!transform.any_op, !transform.any_op) "
                       "-> (!transform.any_op, !transform.any_op)",
                       fused, next, producer, forall));
    forall = next;
    if (&producer == &producers.back()) {
      // The fused init is the block's accumulator: it lives in shared
      // memory, so the consumers read it on chip. Its own destination (a
      // slice of the kernel's output) is never read: without an empty one,
      // the allocation would start as a copy of it.
      line(llvm::formatv("transform.tessel.init_from_empty {0} : "
                         "!transform.any_op",
                         fused));
      std::string buffer = fresh("buffer"), newOp = fresh("alloc");
      line(llvm::formatv(
          "{0}, {1} = transform.structured.bufferize_to_allocation {2} "
          "{{memory_space = #gpu.address_space<workgroup>, alloc_op = "
          "\"memref.alloca\", bufferize_destination_only} : !transform.any_op",
          buffer, newOp, fused));
    }
  }
  if (!op.inlinedAnchors.empty())
    writeInlinedProducers(op, tiledAnchor, forall);
  if (isCrossThreadReduction(op))
    withSink([&](ScriptSink &s) {
      writeCrossThreadSplit(s, op, tiledAnchor, forall);
    });
  (void)index;
}

SizeList ScriptWriter::stageSizes(const ScheduledOp &op) {
  SizeList stage = sizesFor(identity(op), [&](unsigned l) -> std::string {
    if (!op.nest.isReduction[l] || levels(op, l)[0] == 1)
      return "";
    return tileKnob(op, l, 1, "stage_tile");
  });
  if (!op.sketch.getShared().empty() && stage.allZero()) {
    // Promotion copies slices; with the whole reduction staged at once,
    // a one-iteration staging loop provides them.
    unsigned first = llvm::find(op.nest.isReduction, true) -
                     op.nest.isReduction.begin();
    if (first < op.nest.size()) {
      stage.entries[first] = tileKnob(op, first, 1, "stage_tile");
      ++stage.numParams;
    }
  }
  return stage;
}

void ScriptWriter::writeInlinedProducers(const ScheduledOp &op,
                                         StringRef tiledOp,
                                         std::string &forall) {
  // The block computes the producer over its tile of the operand...
  SmallVector<std::string> blockProducers;
  for (int64_t anchor : op.inlinedAnchors) {
    std::string producer = match(root, anchor);
    std::string fused = fresh("inlined"), next = fresh("forall");
    line(llvm::formatv("{0}, {1} = transform.structured.fuse_into_containing_op "
                       "{2} into {3} : (!transform.any_op, !transform.any_op) "
                       "-> (!transform.any_op, !transform.any_op)",
                       fused, next, producer, forall));
    forall = next;
    blockProducers.push_back(fused);
  }
  // ... and, once the staging loops exist, over the tile of one stage only,
  // into shared memory: the operand's shared tile. No global temporary is
  // left. When the whole reduction is one stage, the block's tile is that
  // of the stage.
  SmallVector<std::string> loops;
  if (numStageLoops(op) > 0)
    tileFor(tiledOp, stageSizes(op), loops);
  for (const std::string &producer : blockProducers) {
    std::string fused = producer;
    if (!loops.empty()) {
      fused = fresh("inlined");
      std::string next = fresh("loop");
      line(llvm::formatv(
          "{0}, {1} = transform.structured.fuse_into_containing_op {2} into "
          "{3} : (!transform.any_op, !transform.any_op) -> (!transform.any_op, "
          "!transform.any_op)",
          fused, next, producer, loops.back()));
    }
    std::string buffer = fresh("buffer"), newOp = fresh("alloc");
    line(llvm::formatv(
        "{0}, {1} = transform.structured.bufferize_to_allocation {2} "
        "{{memory_space = #gpu.address_space<workgroup>, alloc_op = "
        "\"memref.alloca\", bufferize_destination_only} : !transform.any_op",
        buffer, newOp, fused));
  }
}

std::string ScriptWriter::tileLevelAsLoops(const ScheduledOp &op,
                                           StringRef target,
                                           ArrayRef<unsigned> loopMap,
                                           bool reduction, unsigned level,
                                           StringRef knobName,
                                           UnrollMode unroll) {
  SmallVector<int64_t> trips;
  SizeList sizes = sizesFor(loopMap, [&](unsigned l) -> std::string {
    if (op.nest.isReduction[l] != reduction || levels(op, l)[level] == 1)
      return "";
    trips.push_back(levels(op, l)[level]);
    return tileKnob(op, l, level + 1, knobName);
  });
  if (sizes.allZero())
    return target.str();
  SmallVector<std::string> loops;
  std::string tiled = tileFor(target, sizes, loops);
  if (unroll == UnrollMode::Always)
    annotateUnroll(loops, trips);
  else if (product(trips) <= op.config.getUnroll())
    annotateUnroll(loops, trips, /*late=*/true);
  return tiled;
}

std::string ScriptWriter::writeThreadLevel(const ScheduledOp &op,
                                           StringRef target,
                                           ArrayRef<unsigned> loopMap) {
  std::string current = target.str();
  // Virtual threads: strided tiles of one thread, as loops around the
  // thread forall.
  if (isMultiLevel(op))
    current = tileLevelAsLoops(op, current, loopMap, /*reduction=*/false,
                               /*level=*/1, "vthread_tile",
                               UnrollMode::Always);
  unsigned threadLevel = *op.sketch.getThreadLevel();
  bool singleThread = threadsOf(op) == 1;
  unsigned firstSpace =
      llvm::find(op.nest.isReduction, false) - op.nest.isReduction.begin();
  SizeList sizes = sizesFor(loopMap, [&](unsigned l) -> std::string {
    if (op.nest.isReduction[l])
      return "";
    if (levels(op, l)[threadLevel] == 1 && !(singleThread && l == firstSpace))
      return "";
    return tileKnob(op, l, threadLevel + 1, "thread_tile");
  });
  if (sizes.allZero() && !loopMap.empty()) {
    // Every op needs a thread forall; a loop of trip count 1 is mapped to
    // thread 0 only.
    sizes.entries[llvm::find(loopMap, firstSpace) - loopMap.begin()] =
        tileKnob(op, firstSpace, threadLevel + 1, "thread_tile");
    ++sizes.numParams;
  }
  std::string forall;
  bool boundary = llvm::any_of(loopMap, [&](unsigned l) {
    return hasBoundaryBlocks(op, l);
  });
  if (!boundary)
    return tileForallMapped(current, "tile_sizes", sizes,
                            linearMapping("thread", loopMap, sizes), forall);
  // A boundary block's tile is smaller than the block: split it over the
  // block's threads by count (the threads past its end get empty tiles),
  // so that the forall keeps its static thread count.
  SizeList counts = sizesFor(loopMap, [&](unsigned l) -> std::string {
    if (op.nest.isReduction[l] || sizes.entries[llvm::find(loopMap, l) -
                                                loopMap.begin()] == "0")
      return "";
    return knob(op, llvm::formatv("d{0}.threads", l).str(),
                levels(op, l)[threadLevel], {levels(op, l)[threadLevel]});
  });
  return tileForallMapped(current, "num_threads", counts,
                          linearMapping("thread", loopMap, counts), forall);
}

std::string ScriptWriter::writeWarpLevel(const ScheduledOp &op,
                                         StringRef target,
                                         ArrayRef<unsigned> loopMap) {
  unsigned warpLevel = *op.sketch.getWarpLevel();
  // A warp tile per warp; with one warp, the whole block's threads are it.
  SizeList sizes = sizesFor(loopMap, [&](unsigned l) -> std::string {
    if (op.nest.isReduction[l] || levels(op, l)[warpLevel] == 1)
      return "";
    return tileKnob(op, l, warpLevel + 1, "warp_tile");
  });
  std::string current = target.str();
  if (!sizes.allZero()) {
    std::string forall;
    current = tileForall(current, sizes, "warp", forall);
  }
  // The steps of one stage (unrolled after hoisting, within the unroll
  // setting), then the mma tiles of a warp (always unrolled: each keeps its
  // accumulator in registers).
  current = tileLevelAsLoops(op, current, loopMap, /*reduction=*/true,
                             /*level=*/1, "mma_step",
                             UnrollMode::LateWithinBudget);
  return tileLevelAsLoops(op, current, loopMap, /*reduction=*/false,
                          /*level=*/2, "mma_tile", UnrollMode::Always);
}

void ScriptWriter::writeCooperativeLoads(const ScheduledOp &op,
                                         ArrayRef<std::string> copies) {
  unsigned numShared = op.sketch.getShared().size();
  int64_t threads = threadsOf(op);
  ArrayRef<int64_t> vector = op.config.getVector();
  for (unsigned i = 0; i < numShared; ++i) {
    ArrayRef<int64_t> shape = op.sharedFootprints[i];
    int64_t width = vector.empty() ? 1 : vector[i];
    std::string widthKnob =
        knob(op, llvm::formatv("operand{0}.vector", op.sketch.getShared()[i]).str(),
             width, {1, 2, 4, 8, 16});
    // Rounds of at most one vector per thread, innermost dims first, so
    // that consecutive threads load consecutive vectors (coalesced); threads
    // beyond the chunk idle (the forall has fewer iterations than threads).
    SmallVector<int64_t> chunk = getCooperativeLoadChunk(shape, threads, width);
    std::string current = copies[i];
    if (chunk != shape) {
      SizeList loopSizes;
      for (unsigned d = 0; d < shape.size(); ++d) {
        if (chunk[d] == shape[d]) {
          loopSizes.entries.push_back("0");
          continue;
        }
        std::string p = fresh("chunk");
        line(llvm::formatv("{0} = transform.param.constant {1} : i64 -> "
                           "!transform.param<i64>",
                           p, chunk[d]));
        loopSizes.entries.push_back(p);
        ++loopSizes.numParams;
      }
      SmallVector<std::string> loops;
      current = tileFor(current, loopSizes, loops);
    }
    SizeList threadSizes;
    for (unsigned d = 0; d + 1 < shape.size(); ++d)
      threadSizes.entries.push_back(chunk[d] == 1 ? "0" : "1");
    threadSizes.entries.push_back(widthKnob);
    ++threadSizes.numParams;
    std::string forall;
    tileForall(current, threadSizes, "thread", forall);
  }
}

void ScriptWriter::writeThreadTiling(const ScheduledOp &op, unsigned index) {
  if (isCrossThreadReduction(op)) {
    blockForalls[index] = withSink(
        [&](ScriptSink &s) { return writeCrossThreadThreads(s, op, root); });
    return;
  }
  std::string anchor = match(root, op.anchor);
  std::string blockForall = fresh("block");
  line(llvm::formatv("{0} = transform.get_parent_op {1} {{op_name = "
                     "\"scf.forall\"} : (!transform.any_op) -> "
                     "!transform.any_op",
                     blockForall, anchor));
  blockForalls[index] = blockForall;

  std::string current = anchor;
  if (hasStagingLoop(op)) {
    // The shared-memory staging loop over the reductions (already made on
    // tensors when producers are inlined into it).
    ArrayRef<int64_t> shared = op.sketch.getShared();
    SizeList stage = stageSizes(op);
    std::string scope = blockForall;
    if (!stage.allZero()) {
      if (op.inlinedAnchors.empty() || numStageLoops(op) == 0) {
        // (A one-iteration staging loop is made here, after
        // canonicalization, which would remove it.)
        SmallVector<std::string> loops;
        current = tileFor(current, stage, loops);
        scope = loops.front();
      } else {
        // Made on tensors: the anchor's innermost loops.
        int64_t loops = numStageLoops(op);
        scope = fresh("stage");
        line(llvm::formatv("{0} = transform.get_parent_op {1} {{op_name = "
                           "\"scf.for\", nth_parent = {2}} : "
                           "(!transform.any_op) -> !transform.any_op",
                           scope, anchor, loops));
      }
    }
    if (op.config.getStages() > 1)
      pipelinedLoops[index] = scope;
    // Operands whose producer is inlined are in shared memory already;
    // the others are promoted, each by a copy.
    SmallVector<int64_t> promotedOperands;
    for (int64_t operand : shared)
      if (!llvm::is_contained(op.sketch.getInlined(), operand))
        promotedOperands.push_back(operand);
    SmallVector<std::string> copies;
    if (!promotedOperands.empty()) {
      std::string promoted = fresh("promoted");
      line(llvm::formatv(
          "{0} = transform.structured.promote {1} {{operands_to_promote = "
          "[{2}], use_alloca, memory_space = #gpu.address_space<workgroup>} "
          ": (!transform.any_op) -> !transform.any_op",
          promoted, current, joinInts(promotedOperands)));
      current = promoted;
      // Padded rows (the config's `pad`, per staged operand).
      SmallVector<int64_t> paddedOperands, pads;
      for (auto [index, operand] : llvm::enumerate(shared))
        if (int64_t pad = op.config.getPadOf(index)) {
          paddedOperands.push_back(operand);
          pads.push_back(pad);
        }
      if (!paddedOperands.empty())
        line(llvm::formatv("transform.tessel.pad_promoted_tiles {0} operands "
                           "= [{1}] pad = [{2}] : !transform.any_op",
                           promoted, joinInts(paddedOperands), joinInts(pads)));
      std::string all = fresh("copies");
      line(llvm::formatv("{0} = transform.structured.match "
                         "ops{{[\"linalg.copy\"]} in {1} : "
                         "(!transform.any_op) -> !transform.any_op",
                         all, scope));
      for (unsigned i = 0; i < promotedOperands.size(); ++i)
        copies.push_back(fresh("copy"));
      std::string types = "!transform.any_op";
      for (unsigned i = 1; i < promotedOperands.size(); ++i)
        types += ", !transform.any_op";
      line(llvm::formatv("{0} = transform.split_handle {1} : "
                         "(!transform.any_op) -> ({2})",
                         llvm::join(copies, ", "), all, types));
    }
    SmallVector<std::string> loads;
    for (int64_t operand : shared) {
      auto inlined = llvm::find(op.sketch.getInlined(), operand);
      if (inlined != op.sketch.getInlined().end()) {
        loads.push_back(match(
            root, op.inlinedAnchors[inlined - op.sketch.getInlined().begin()]));
        continue;
      }
      loads.push_back(
          copies[llvm::find(promotedOperands, operand) - promotedOperands.begin()]);
    }
    writeCooperativeLoads(op, loads);
  }

  if (isTensorCore(op)) {
    writeWarpLevel(op, current, identity(op));
    // The init follows the warps' layout exactly, so that its stores
    // forward into the accumulators.
    if (op.initAnchor)
      writeWarpLevel(op, match(root, *op.initAnchor), op.initLoops);
    return;
  }
  current = writeThreadLevel(op, current, identity(op));

  if (isMultiLevel(op)) {
    // Register levels inside a thread: the middle reduction level (R1) and
    // the outer register space level (S3).
    current = tileLevelAsLoops(op, current, identity(op), /*reduction=*/true,
                               /*level=*/1, "inner_tile",
                               UnrollMode::LateWithinBudget);
    current = tileLevelAsLoops(op, current, identity(op), /*reduction=*/false,
                               /*level=*/3, "register_tile",
                               UnrollMode::Always);
  }

  // Fused producer of the init and fused consumers follow the op's
  // per-thread layout exactly, so that every thread reads back only the
  // accumulators it wrote.
  if (op.initAnchor) {
    std::string init = match(root, *op.initAnchor);
    writeThreadLevel(op, init, op.initLoops);
  }
  for (auto [c, loops] : llvm::zip(op.consumerAnchors, op.consumerLoops)) {
    std::string consumer = match(root, c);
    std::string tiled = writeThreadLevel(op, consumer, loops);
    // A row epilogue (its row loop runs the op's reduction loop, whole in
    // the thread): each thread walks the rows it reduced, a register tile
    // of the reduction at a time.
    SizeList row;
    for (unsigned l : loops) {
      int64_t tile = levels(op, l).back();
      bool serial = op.nest.isReduction[l] && tile < op.nest.extents[l];
      row.entries.push_back(serial ? std::to_string(tile) : "0");
    }
    if (!row.allZero()) {
      SmallVector<std::string> rowLoops;
      tileFor(tiled, row, rowLoops);
    }
  }
}

void ScriptWriter::writeGpuMapping() {
  for (const ScheduledOp &op : ops) {
    std::string forall = fresh("kernel");
    line(llvm::formatv("{0} = transform.structured.match attributes "
                       "{{tessel.kernel = {1} : i64} in {2} : "
                       "(!transform.any_op) -> !transform.any_op",
                       forall, op.anchor, root));
    std::string launch = fresh("launch");
    line(llvm::formatv("{0} = transform.gpu.map_forall_to_blocks {1} "
                       "generate_gpu_launch grid_dims = [{2}, 1, 1] : "
                       "(!transform.any_op) -> !transform.any_op",
                       launch, forall, blocksOf(op)));
    std::string id = fresh("kernel");
    line(llvm::formatv("{0} = transform.param.constant {1} : i64 -> "
                       "!transform.param<i64>",
                       id, op.anchor));
    line(llvm::formatv("transform.annotate {0} \"tessel.kernel\" = {1} : "
                       "!transform.any_op, !transform.param<i64>",
                       launch, id));
    std::string cls = fresh("class");
    line(llvm::formatv("{0} = transform.param.constant {1} : i64 -> "
                       "!transform.param<i64>",
                       cls, keepsAccumulatorInRegisters(op) ? 1 : 0));
    line(llvm::formatv("transform.annotate {0} \"{1}\" = {2} : "
                       "!transform.any_op, !transform.param<i64>",
                       launch, TesselDialect::kAccumulatorsAttrName, cls));
    if (isTensorCore(op))
      line(llvm::formatv("transform.annotate {0} \"{1}\" : !transform.any_op",
                         launch, TesselDialect::kTensorCoreAttrName));
    std::string mapped = fresh("mapped");
    line(llvm::formatv("{0} = transform.gpu.map_nested_forall_to_threads {1} "
                       "block_dims = [{2}, 1, 1] : (!transform.any_op) -> "
                       "!transform.any_op",
                       mapped, launch, threadsOf(op)));
  }
}

std::string ScriptWriter::matchFuncs() {
  std::string f = fresh("funcs");
  line(llvm::formatv("{0} = transform.structured.match ops{{[\"func.func\"]} "
                     "in {1} : (!transform.any_op) -> !transform.any_op",
                     f, root));
  return f;
}

void ScriptWriter::rewriteWindowAccesses() {
  for (const ScheduledOp &op : ops) {
    if (!op.readsWindows)
      continue;
    std::string tiles = fresh("windows");
    line(llvm::formatv("{0} = transform.structured.match attributes "
                       "{{{1} = {2} : i64} in {3} : "
                       "(!transform.any_op) -> !transform.any_op",
                       tiles, TesselDialect::kAnchorAttrName, op.anchor, root));
    line(llvm::formatv("transform.tessel.rewrite_window_accesses {0} : "
                       "!transform.any_op",
                       tiles));
  }
}

void ScriptWriter::vectorize(StringRef funcs) {
  line(llvm::formatv("%vectorized = transform.structured.vectorize_children_"
                     "and_apply_patterns {0} : (!transform.any_op) -> "
                     "!transform.any_op",
                     funcs));
}

void ScriptWriter::hoistVectorTransfers(StringRef result, StringRef funcs) {
  // One op's script (a tuning task's, which stock mlir-opt replays) has one
  // kernel: upstream's op walks no more than Tessel's would.
  StringRef op = ops.size() < 2
                     ? "transform.structured.hoist_redundant_vector_transfers"
                     : "transform.tessel.hoist_vector_transfers_in_kernels";
  line(llvm::formatv("{0} = {1} {2} : (!transform.any_op) -> "
                     "!transform.any_op",
                     result, op, funcs));
}

void ScriptWriter::writeRegisterLevelCleanup() {
  auto canonicalize = [&](StringRef f) {
    line(llvm::formatv("transform.apply_cse to {0} : !transform.any_op", f));
    line(llvm::formatv("transform.apply_patterns to {0} {{ "
                       "transform.apply_patterns.canonicalization } : "
                       "!transform.any_op",
                       f));
  };
  auto foldAliases = [&](StringRef f) {
    line(llvm::formatv("transform.apply_patterns to {0} {{ "
                       "transform.apply_patterns.memref.fold_memref_alias_ops "
                       "} : !transform.any_op",
                       f));
  };
  // Fold subviews into the vector transfers of the kernels that keep their
  // accumulators in registers, so that hoisting sees loop-invariant
  // accesses. Only those kernels: the patterns do not terminate on some
  // reshaped views elsewhere.
  auto foldKernels = [&] { foldAliases(matchKernelClass(true)); };
  // What upstream's hoisting leaves of the register kernels' accumulators
  // because a later kernel reads their buffer through views (split-K's
  // combining kernel, a reduction after a matmul): hoisted judging each
  // kernel by its own accesses. Scripts of one op (tuning tasks, emitted
  // scripts) have no later kernel and stay replayable in stock mlir-opt.
  auto hoistKernelAccumulators = [&] {
    if (ops.size() < 2)
      return;
    line(llvm::formatv("transform.tessel.hoist_kernel_accumulators {0} : "
                       "!transform.any_op",
                       matchKernelClass(true)));
  };

  for (int64_t trips : options.unrollCounts)
    unrollCounts.insert(trips);
  for (int64_t trips : options.lateUnrollCounts)
    lateUnrollCounts.insert(trips);
  auto unroll = [&](StringRef attr, ArrayRef<int64_t> counts, StringRef f) {
    for (int64_t trips : counts) {
      std::string loops = fresh("unroll");
      line(llvm::formatv("{0} = transform.structured.match attributes "
                         "{{{1} = {2} : i64} in {3} : "
                         "(!transform.any_op) -> !transform.any_op",
                         loops, attr, trips, f));
      line(llvm::formatv("transform.loop.unroll {0} {{factor = {1}} : "
                         "!transform.any_op",
                         loops, trips));
    }
  };
  // Drop the unit dims vectorization gives per-thread tiles, before any
  // loop carries a vector: n-D unit vectors in loop-carried accumulators
  // survive into the NVVM lowering, which cannot lower their broadcasts.
  line(llvm::formatv("transform.apply_patterns to {0} {{ "
                     "transform.apply_patterns.vector.cast_away_vector_"
                     "leading_one_dim } : !transform.any_op",
                     matchKernelClass(true)));
  // Virtual-thread and register-tile loops first: afterwards every
  // accumulator access is invariant in the reduction loops around it.
  std::string f = matchFuncs();
  // `structured.match` takes exactly one target: match in the root, not in
  // the (possibly several) functions.
  unroll(TesselDialect::kUnrollAttrName, unrollCounts.getArrayRef(), root);
  canonicalize(f);
  foldKernels();
  // Folding writes the index computation of each access anew; the read and
  // the write of an accumulator must share it to be hoisted as a pair.
  canonicalize(f);
  std::string hoisted = fresh("hoisted");
  hoistVectorTransfers(hoisted, f);
  hoistKernelAccumulators();
  // Then the register-level reduction loops the unroll setting allows.
  unroll(TesselDialect::kUnrollLateAttrName, lateUnrollCounts.getArrayRef(),
         root);
  canonicalize(hoisted);
  foldKernels();
  canonicalize(hoisted);
  std::string hoisted2 = fresh("hoisted");
  hoistVectorTransfers(hoisted2, hoisted);
  hoistKernelAccumulators();
  // Tensor-core kernels: the warps' contractions become mma.sync before
  // anything lowers them.
  if (llvm::any_of(ops, [&](const ScheduledOp &op) { return isTensorCore(op); })) {
    std::string launches = fresh("mma");
    line(llvm::formatv("{0} = transform.structured.match attributes "
                       "{{{1}} in {2} : (!transform.any_op) -> "
                       "!transform.any_op",
                       launches, TesselDialect::kTensorCoreAttrName, root));
    line(llvm::formatv("transform.tessel.convert_to_mma_sync {0}{1} : "
                       "!transform.any_op",
                       launches, options.allowTf32 ? " {allow_tf32}" : ""));
  }
  // Upstream barrier elimination does not terminate on some kernels whose
  // K loop carries accumulators; redundant barriers only cost time.
  // The NVVM lowering handles 1-D vectors only: lower the rest here.
  // Canonicalization folds what lower_broadcast expands: applying both in
  // one greedy rewrite does not terminate, so they alternate. Dropping
  // leading unit dims and lowering broadcasts do not terminate together
  // either (a unit broadcast lowers to an insert that the unit-dim patterns
  // turn back into a broadcast, without end, allocating until memory runs
  // out: a layer-norm variance of BERT-base): unit dims are dropped first,
  // in a rewrite of their own.
  auto lowerVectors = [&](StringRef target, bool castAway) {
    auto patterns = [](bool dropUnitDims) {
      std::string list;
      if (dropUnitDims)
        list += "      transform.apply_patterns.vector."
                "cast_away_vector_leading_one_dim\n";
      list += "      transform.apply_patterns.vector.lower_contraction "
              "lowering_strategy = \"outerproduct\"\n"
              "      transform.apply_patterns.vector.lower_outerproduct\n"
              "      transform.apply_patterns.vector."
              "transfer_permutation_patterns\n"
              "      transform.apply_patterns.vector.transfer_to_scf "
              "max_transfer_rank = 1 full_unroll = true\n"
              "      transform.apply_patterns.vector.lower_transfer "
              "max_transfer_rank = 1\n"
              "      transform.apply_patterns.vector.lower_transpose\n";
      if (!dropUnitDims)
        list += "      transform.apply_patterns.vector.lower_shape_cast\n"
                "      transform.apply_patterns.vector.lower_broadcast\n";
      list += "      transform.apply_patterns.vector.lower_multi_reduction "
              "lowering_strategy = \"innerreduction\"\n";
      return list;
    };
    auto apply = [&](bool dropUnitDims) {
      line(llvm::formatv("transform.apply_patterns to {0} {{\n{1}"
                         "    } : !transform.any_op",
                         target, patterns(dropUnitDims)));
    };
    if (castAway)
      apply(/*dropUnitDims=*/true);
    apply(/*dropUnitDims=*/false);
  };
  for (int round = 0; round < 2; ++round) {
    lowerVectors(matchKernelClass(false), /*castAway=*/true);
    lowerVectors(hoisted2, /*castAway=*/false);
    // The last round must not be followed by canonicalization, which
    // would fold lowered broadcasts back into n-D ones.
    if (round == 0)
      canonicalize(hoisted2);
  }
  line(llvm::formatv("transform.apply_cse to {0} : !transform.any_op",
                     hoisted2));
}

void ScriptWriter::writeTilingPart() {
  for (const ScheduledOp &op : ops)
    writeKnobs(op);
  if (!options.onBuffers) {
    line("// Block level, on tensors: one forall per kernel, consumers "
         "fused.");
    for (auto [index, op] : llvm::enumerate(ops))
      writeBlockTiling(op, index);
    // Dead-code elimination only: canonicalization here would fold slices
    // of splat constants into new constants, which promotion cannot stage.
    line("%funcs0 = transform.structured.match ops{[\"func.func\"]} in "
         "%root : (!transform.any_op) -> !transform.any_op");
    line("transform.apply_dce to %funcs0 : !transform.any_op");
    line("// Bufferize the whole module.");
    line("%bz = transform.bufferization.one_shot_bufferize %root "
         "{bufferize_function_boundaries = true, memcpy_op = \"linalg.copy\", "
         "function_boundary_type_conversion = 1 : i32} : (!transform.any_op) "
         "-> !transform.any_op");
    root = "%bz";
  } else {
    line("// Block level, on buffers.");
    for (auto [index, op] : llvm::enumerate(ops))
      writeBlockTiling(op, index);
  }
  line(llvm::formatv("%funcs1 = transform.structured.match ops{{[\"func.func\"]}"
                     " in {0} : (!transform.any_op) -> !transform.any_op",
                     root));
  line("transform.apply_cse to %funcs1 : !transform.any_op");
  line("transform.apply_patterns to %funcs1 { "
       "transform.apply_patterns.canonicalization } : !transform.any_op");

  line("// Staging, virtual threads, threads and registers, on buffers.");
  blockForalls.resize(ops.size());
  pipelinedLoops.resize(ops.size());
  for (auto [index, op] : llvm::enumerate(ops))
    writeThreadTiling(op, index);
  bool anyShared = llvm::any_of(
      ops, [](const ScheduledOp &op) { return !op.sketch.getShared().empty(); });
  if (anyShared)
    line("transform.bufferization.buffer_loop_hoisting %funcs1 : "
         "!transform.any_op");
  // Software pipelining, once the shared buffers are outside the loops.
  for (auto [op, loop] : llvm::zip(ops, pipelinedLoops)) {
    if (loop.empty())
      continue;
    line(llvm::formatv("{0} = transform.tessel.pipeline_shared_stages {1} "
                       "stages = {2} : (!transform.any_op, "
                       "!transform.param<i64>) -> !transform.any_op",
                       fresh("pipelined"), loop,
                       knob(op, "stages", op.config.getStages(), {})));
  }
  // Mark every kernel's block forall for the mapping step.
  for (auto [op, forall] : llvm::zip(ops, blockForalls)) {
    std::string id = fresh("kernel");
    line(llvm::formatv("{0} = transform.param.constant {1} : i64 -> "
                       "!transform.param<i64>",
                       id, op.anchor));
    line(llvm::formatv("transform.annotate {0} \"tessel.kernel\" = {1} : "
                       "!transform.any_op, !transform.param<i64>",
                       forall, id));
  }
}

void ScriptWriter::writeMappingPart() {
  if (options.stopBeforeGpuMapping) {
    rewriteWindowAccesses();
    vectorize(matchFuncs());
    return;
  }
  line("// Shared buffers become workgroup globals.");
  std::string allocas = fresh("allocas"), get = fresh("get"),
              globals = fresh("globals");
  line(llvm::formatv("{0} = transform.structured.match ops{{[\"memref.alloca\"]}"
                     " in {1} : (!transform.any_op) -> "
                     "!transform.op<\"memref.alloca\">",
                     allocas, root));
  line(llvm::formatv("{0}, {1} = transform.memref.alloca_to_global {2} : "
                     "(!transform.op<\"memref.alloca\">) -> "
                     "(!transform.any_op, !transform.any_op)",
                     get, globals, allocas));
  // alloca_to_global drops alignment, and ptxas packs unaligned buffers
  // byte by byte: a 12-byte A tile put the B tile at byte 12, where its
  // 16-byte vector stores faulted (CUDA_ERROR_MISALIGNED_ADDRESS on an
  // H200). The widest shared access (a 4 x 32-bit vector, a 16-byte
  // cp.async, an ldmatrix row) needs 16 bytes.
  std::string alignment = fresh("alignment");
  line(llvm::formatv("{0} = transform.param.constant 16 : i64 -> "
                     "!transform.param<i64>",
                     alignment));
  line(llvm::formatv("transform.annotate {0} \"alignment\" = {1} : "
                     "!transform.any_op, !transform.param<i64>",
                     globals, alignment));
  line("// Map the foralls to blocks and threads.");
  writeGpuMapping();
  line("// Vectorize, keep accumulators in registers, unroll.");
  rewriteWindowAccesses();
  vectorize(matchFuncs());
  writeRegisterLevelCleanup();
  if (llvm::any_of(ops, [](const ScheduledOp &op) {
        return op.config && op.config.getStages() > 1;
      }))
    line(llvm::formatv("transform.tessel.async_staging_copies {0}{1} : "
                       "!transform.any_op",
                       root, options.asyncCopies ? "" : " {synchronous}"));
}

std::string ScriptWriter::write(ScheduleScriptPart part) {
  // Bufferization consumes the payload root; nothing else does.
  bool bufferizes = part != ScheduleScriptPart::Mapping && !options.onBuffers;
  os << "module attributes {transform.with_named_sequence} {\n";
  os << "  transform.named_sequence @" << kScheduleEntryPoint
     << "(%root: !transform.any_op {transform."
     << (bufferizes ? "consumed" : "readonly") << "}) {\n";
  if (part != ScheduleScriptPart::Mapping)
    writeTilingPart();
  if (part != ScheduleScriptPart::Tiling)
    writeMappingPart();
  line("transform.yield");
  os << "  }\n}\n";
  return text;
}

std::string tessel::buildScheduleScript(ArrayRef<ScheduledOp> ops,
                                        const ScheduleScriptOptions &options,
                                        ScheduleScriptPart part) {
  return ScriptWriter(ops, options).write(part);
}
