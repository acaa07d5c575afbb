//===- TesselDialect.td - Tessel dialect definition ------*- tablegen -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_IR_TESSELDIALECT_TD
#define TESSEL_DIALECT_TESSEL_IR_TESSELDIALECT_TD

include "mlir/IR/OpBase.td"

def Tessel_Dialect : Dialect {
  let name = "tessel";
  let cppNamespace = "::mlir::tessel";
  let summary = "Ansor-style GPU schedule sketches and tile annotations";
  let description = [{
    The `tessel` dialect describes how a linalg operator is scheduled on an
    NVIDIA GPU. A schedule has two parts, attached to the linalg op as
    discardable attributes:

    * `tessel.sketch = #tessel.sketch<...>`: the *structure* of the schedule
      (Ansor's sketch): which tiling levels exist, which operands are staged
      in shared memory, whether the accumulator stays in registers and how
      many elementwise consumers are fused into the kernel.
    * `tessel.config = #tessel.config<...>`: the *annotations* that fill the
      sketch in: the trip count of every tiling level of every loop, the
      unroll setting and the vector width of each cooperative load.

    Both are verified against the op they annotate. Materialization turns the
    pair into a transform-dialect schedule made of upstream transform ops.

    ```mlir
    %0 = linalg.matmul {
        tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS",
                                       shared = [0, 1], register_accumulator>,
        tessel.config = #tessel.config<tiles = [[4, 1, 8, 4, 1], [4, 1, 16, 1, 1],
                                                [32, 8, 1]],
                                       unroll = 64, vector = [2, 1]>}
        ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
        outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute that carries a schedule sketch.
    static constexpr ::llvm::StringLiteral kSketchAttrName = "tessel.sketch";
    /// Name of the discardable attribute that carries a schedule config.
    static constexpr ::llvm::StringLiteral kConfigAttrName = "tessel.config";
    /// Name of the integer marker that identifies a scheduled op inside a
    /// transform script.
    static constexpr ::llvm::StringLiteral kAnchorAttrName = "tessel.anchor";
    /// Name of the integer marker of a loop that a transform script fully
    /// unrolls; its value is the loop's trip count.
    static constexpr ::llvm::StringLiteral kUnrollAttrName = "tessel.unroll";
    /// Like `tessel.unroll`, for loops unrolled after accumulators are
    /// hoisted out of them.
    static constexpr ::llvm::StringLiteral kUnrollLateAttrName =
        "tessel.unroll_late";
    /// Name of the integer marker of the block-level loop of a kernel.
    static constexpr ::llvm::StringLiteral kKernelAttrName = "tessel.kernel";
    /// Name of the integer marker (1 or 0) of a kernel that keeps (or does
    /// not keep) its accumulators in registers.
    static constexpr ::llvm::StringLiteral kAccumulatorsAttrName =
        "tessel.accumulators";
    /// Name of the positive integer asking `--tessel-split-k` to split a
    /// linalg op's reduction into that many parallel parts.
    static constexpr ::llvm::StringLiteral kSplitKAttrName = "tessel.split_k";
    /// Name of the dictionary of kernel facts (KernelFacts.h) on a
    /// `gpu.launch`, until the kernel is outlined.
    static constexpr ::llvm::StringLiteral kFactsAttrName = "tessel.facts";
    /// Name of the module dictionary mapping outlined kernel modules to
    /// their facts.
    static constexpr ::llvm::StringLiteral kKernelFactsAttrName =
        "tessel.kernel_facts";
    /// Name of the unit attribute marking the op a tuning task tunes in its
    /// standalone module.
    static constexpr ::llvm::StringLiteral kTargetAttrName = "tessel.target";
    /// Name of the unit attribute marking the linalg op that the
    /// materialization wrote for an inlined `tensor.pad`.
    static constexpr ::llvm::StringLiteral kInlinedPadAttrName =
        "tessel.inlined_pad";
    /// Name of the unit attribute marking the commits, waits and barriers
    /// that pipelining a staging loop adds (PipelineStaging.h).
    static constexpr ::llvm::StringLiteral kPipelineSyncAttrName =
        "tessel.pipeline_sync";
    /// Marks a `gpu.launch` whose warp-level vector contractions become
    /// `mma.sync` (tensor_core sketches), for the mapping script.
    static constexpr ::llvm::StringLiteral kTensorCoreAttrName =
        "tessel.tensor_core";

  private:
    void registerAttributes();
  public:
  }];
}

#endif // TESSEL_DIALECT_TESSEL_IR_TESSELDIALECT_TD
