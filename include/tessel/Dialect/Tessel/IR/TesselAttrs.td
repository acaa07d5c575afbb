//===- TesselAttrs.td - Tessel sketch and config attributes -*- tablegen -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_IR_TESSELATTRS_TD
#define TESSEL_DIALECT_TESSEL_IR_TESSELATTRS_TD

include "tessel/Dialect/Tessel/IR/TesselDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tessel_SketchKind : I32EnumAttr<"SketchKind", "kind of GPU schedule sketch", [
    I32EnumAttrCase<"MultiLevelTiling", 0, "multi_level_tiling">,
    I32EnumAttrCase<"CrossThreadReduction", 1, "cross_thread_reduction">,
    I32EnumAttrCase<"TwoLevelInjective", 2, "two_level_injective">,
    I32EnumAttrCase<"TensorCore", 3, "tensor_core">
  ]> {
  let cppNamespace = "::mlir::tessel";
  let genSpecializedAttr = 0;
}

class Tessel_Attr<string name, string attrMnemonic>
    : AttrDef<Tessel_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Tessel_SketchAttr : Tessel_Attr<"Sketch", "sketch"> {
  let summary = "the structure of a GPU schedule (an Ansor sketch)";
  let description = [{
    A sketch fixes the shape of a schedule; a `#tessel.config` fills in its
    numbers.

    * `kind`: `multi_level_tiling` (Ansor's GPU rule for ops with data
      reuse: matmuls, convolutions), `cross_thread_reduction` (a reduction
      whose threads cooperate on one output), `two_level_injective`
      (elementwise ops: blocks and threads only) or `tensor_core` (a
      matmul-like contraction of 16-bit floats on the warp-level
      `mma.sync` instructions of sm_80 and newer).
    * `structure`: the tiling levels, outermost first. `S` is a level of
      every space (parallel) loop, `R` a level of every reduction loop.
      For `multi_level_tiling` it is Ansor's GPU structure `"SSSRRSRS"`: the
      first three space levels are bound to blocks, virtual threads and
      threads; the first reduction level is the shared-memory staging loop,
      the remaining levels run inside a thread, in registers.
      `cross_thread_reduction` uses `"SRR"` (space: block; reduction: serial
      part, threads) and `two_level_injective` uses `"SS"` (blocks, threads).
      `tensor_core` uses `"SSRRSSR"`: blocks, warps, the shared-memory staging
      level, the steps of one stage, the mma tiles of a warp, and the shape
      of one `mma.sync` (space: 16 rows, 8 columns, 1 for batch loops;
      reduction: 16).
    * `shared`: the input operands staged in shared memory, once per
      iteration of the staging loop, by all threads of a block.
    * `register_accumulator`: the output tile of a thread is accumulated in
      registers and written back once.
    * `fused_consumers`: how many elementwise consumers (a single-use chain
      starting at the op's result) are fused into the kernel.
    * `inlined`: the input operands whose producer is inlined (Ansor's
      "always inline strict-inlinable" rule): a single-use `tensor.pad` with
      a constant padding value or an injective `linalg` op is not a kernel
      of its own; the cooperative load of the operand's shared tile computes
      it from the producer's sources. Every inlined operand is also staged
      in `shared`.

    Example:

    ```mlir
    #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1],
                   register_accumulator, fused_consumers = 1>
    #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1],
                   register_accumulator, inlined = [0]>
    ```
  }];
  let parameters = (ins
    "SketchKind":$kind,
    StringRefParameter<"tiling level structure">:$structure,
    OptionalArrayRefParameter<"int64_t">:$shared,
    DefaultValuedParameter<"bool", "false">:$registerAccumulator,
    DefaultValuedParameter<"int64_t", "0">:$fusedConsumers,
    OptionalArrayRefParameter<"int64_t">:$inlined
  );
  let builders = [
    // The sketch without inlined producers.
    AttrBuilder<(ins "SketchKind":$kind, "::llvm::StringRef":$structure,
                     "::llvm::ArrayRef<int64_t>":$shared,
                     "bool":$registerAccumulator, "int64_t":$fusedConsumers), [{
      return $_get($_ctxt, kind, structure, shared, registerAccumulator,
                   fusedConsumers, ::llvm::ArrayRef<int64_t>());
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of tiling levels of each space (parallel) loop.
    unsigned getNumSpaceLevels() const;
    /// Number of tiling levels of each reduction loop.
    unsigned getNumReductionLevels() const;
    /// Index of the space level bound to threads, if any.
    std::optional<unsigned> getThreadLevel() const;
    /// Index of the space level bound to warps (tensor cores), if any.
    std::optional<unsigned> getWarpLevel() const;
    /// Index of the space level bound to virtual threads, if any.
    std::optional<unsigned> getVThreadLevel() const;
    /// Index of the reduction level bound to threads (cross-thread
    /// reduction only).
    std::optional<unsigned> getReductionThreadLevel() const;
    /// The canonical structure string of a sketch kind.
    static ::llvm::StringRef getDefaultStructure(SketchKind kind);
  }];
}

def Tessel_ConfigAttr : Tessel_Attr<"Config", "config"> {
  let summary = "the annotations that fill a sketch in";
  let description = [{
    * `tiles`: one list per loop of the annotated op, in the op's loop order.
      Each list has one entry per level of the sketch structure for the
      loop's kind (space or reduction): the trip count of that level. The
      entries of a loop multiply to the loop's extent.
    * `unroll`: Ansor's auto-unroll max step; one of 0, 16, 64, 512, 1024.
      Register-level loops with at most this many iterations in total are
      fully unrolled.
    * `vector`: the vector width (in elements) of the cooperative load of
      each shared operand, in the order of the sketch's `shared` list.
    * `stages`: the shared-memory buffers of the staging loop of a
      `multi_level_tiling` sketch (software pipelining). 1 (the default, not
      printed) stages synchronously; 2 to 4 load the next `stages - 1`
      steps of the reduction while the current one computes, with
      asynchronous copies (`cp.async`) on sm_80 and newer.
    * `pad`: elements added to each row (the innermost dimension) of the
      shared tile of each staged operand, in the order of the sketch's
      `shared` list (absent: none). A padded row pitch skews the rows of a
      tile across the shared-memory banks, so that lanes of a warp reading
      different rows (A's rows of a matmul, stored M-major; the rows an
      `ldmatrix` reads on tensor cores) do not conflict.
      Each entry is a multiple of the operand's vector width, so rows stay
      aligned for vector and `cp.async` copies.

    Example:

    ```mlir
    #tessel.config<tiles = [[4, 1, 8, 4, 1], [4, 1, 16, 1, 1], [32, 8, 1]],
                   unroll = 64, vector = [2, 1], stages = 3,
                   pad = [2, 0]>
    ```
  }];
  let parameters = (ins
    "::mlir::ArrayAttr":$tiles,
    DefaultValuedParameter<"int64_t", "0">:$unroll,
    OptionalArrayRefParameter<"int64_t">:$vector,
    DefaultValuedParameter<"int64_t", "1">:$stages,
    OptionalArrayRefParameter<"int64_t">:$pad
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of loops the config describes.
    unsigned getNumLoops() const { return getTiles().size(); }
    /// Trip counts of the levels of loop `loop`, outermost first.
    ::llvm::ArrayRef<int64_t> getLoopTiles(unsigned loop) const;
    /// Builds a config from per-loop level trip counts.
    static ConfigAttr get(::mlir::MLIRContext *ctx,
                          ::llvm::ArrayRef<::llvm::SmallVector<int64_t>> tiles,
                          int64_t unroll, ::llvm::ArrayRef<int64_t> vector,
                          int64_t stages = 1,
                          ::llvm::ArrayRef<int64_t> pad = {});
    /// This config with `stages` shared-memory buffers.
    ConfigAttr withStages(int64_t stages) const;
    /// This config with the row padding `pad` of its shared tiles (empty:
    /// none).
    ConfigAttr withPad(::llvm::ArrayRef<int64_t> pad) const;
    /// The row padding of the shared tile of the `index`-th staged operand
    /// (0 when the config pads none).
    int64_t getPadOf(unsigned index) const {
      return index < getPad().size() ? getPad()[index] : 0;
    }
  }];
}

#endif // TESSEL_DIALECT_TESSEL_IR_TESSELATTRS_TD
