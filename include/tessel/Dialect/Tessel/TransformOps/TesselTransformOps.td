//===- TesselTransformOps.td - Tessel transform extension --*- tablegen -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMOPS_TESSELTRANSFORMOPS_TD
#define TESSEL_DIALECT_TESSEL_TRANSFORMOPS_TESSELTRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/MatchInterfaces.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def MatchWorkloadOp : Op<Transform_Dialect, "tessel.match.workload",
    [SingleOpMatcher,
     MatchOpInterface,
     MemoryEffectsOpInterface]> {
  let summary = "Matches a linalg op whose tuning workload key is the given "
                "one";
  let description = [{
    Succeeds if the payload op associated with the operand handle is a
    linalg op whose workload key, the canonical text by which `tessel-tune`
    stores its records (docs/SearchSpace.md), equals `workload`, or whose
    key ignoring the values of floating-point constants (the key of a run
    with `--task-equality=ignore-float-constants`) does. The key
    covers what upstream structured matchers cannot compare exactly: the
    op's name, its full operand and result types, its indexing maps and
    iterator types, its body, the elementwise consumers its kernel fuses and
    the producers it inlines. Produces a silenceable failure otherwise, so
    that `transform.foreach_match` tries the next matcher.

    If more than one payload op is associated with the operand handle,
    produces a definite failure.

    Tuning specs written by `tessel-tune --export-spec` use it after the
    cheaper `transform.match.operation_name` (docs/TuningSpec.md).

    Example:

    ```mlir
    transform.named_sequence @match_task0(
        %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
      transform.match.operation_name %op ["linalg.matmul"] : !transform.any_op
      transform.tessel.match.workload %op "matmul|..." : !transform.any_op
      transform.yield %op : !transform.any_op
    }
    ```
  }];

  let arguments = (ins TransformHandleTypeInterface:$operand_handle,
                       StrAttr:$workload);
  let assemblyFormat =
      "$operand_handle $workload attr-dict `:` type($operand_handle)";
  let extraClassDeclaration = SingleOpMatcher.extraDeclaration;
  let hasVerifier = 1;
}

def PipelineSharedStagesOp : Op<Transform_Dialect,
    "tessel.pipeline_shared_stages",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Software-pipelines a shared-memory staging loop";
  let description = [{
    Pipelines the `scf.for` staging loop of a multi-level kernel, on
    buffers and before GPU mapping, over `stages` steps (a param holding
    one integer; 1 leaves the loop alone): every workgroup buffer the loop
    views gets `stages` slots, the cooperative loads of step i + stages - 1
    run before the math of step i, and `nvvm.cp.async.commit.group` /
    `nvvm.cp.async.wait.group` / `gpu.barrier` mark where a step's loads end
    and where its math waits for them. `transform.tessel.async_staging_copies`
    later turns the loads into `cp.async`. See
    docs/Materialization.md ("Software pipelining").

    Consumes the loop handle and produces a handle to the pipelined loop.
    Fails definitely, with the reason, when the loop cannot be pipelined.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       TransformParamTypeInterface:$stages);
  let results = (outs TransformHandleTypeInterface:$pipelined);
  let assemblyFormat = "$target `stages` `=` $stages attr-dict `:` "
                       "functional-type(operands, results)";
}

def AsyncStagingCopiesOp : Op<Transform_Dialect,
    "tessel.async_staging_copies",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Turns the loads of pipelined staging loops into cp.async";
  let description = [{
    In every `gpu.launch` under the target ops that holds a pipelined
    staging loop (`transform.tessel.pipeline_shared_stages`), turns the
    global-to-shared vector copies into `nvgpu.device_async_copy`, grouped
    and awaited where the pipeline placed its marks. With `synchronous`,
    erases the marks instead and leaves the copies synchronous (chips
    before sm_80, CPU runs).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       UnitAttr:$synchronous);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def InitFromEmptyOp : Op<Transform_Dialect, "tessel.init_from_empty",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Gives linalg ops that never read their inits empty inits";
  let description = [{
    Replaces every init of each target linalg op (on tensors) that its body
    does not read (a `linalg.fill`'s) by a `tensor.empty` of the same shape.
    The value is the same; what changes is bufferization:
    `bufferize_to_allocation` copies a non-empty destination into the new
    buffer. A fused fill's destination is a slice of its kernel's output,
    so its shared accumulator was first loaded from global memory, the
    whole tile in every thread, then overwritten by the fill.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def PadPromotedTilesOp : Op<Transform_Dialect, "tessel.pad_promoted_tiles",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Pads the rows of promoted shared tiles";
  let description = [{
    For each target linalg op, right after `transform.structured.promote`,
    pads every row (innermost dimension) of the workgroup tile of input
    `operands[i]` by `pad[i]` elements: the op and the copy into the tile
    then see the tile through a subview whose row pitch is the padded one,
    which skews the rows across shared-memory banks (a config's `pad`,
    docs/Materialization.md "Padded shared tiles"). Fails definitely, with
    the reason, when an operand is not such a tile.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DenseI64ArrayAttr:$operands,
                       DenseI64ArrayAttr:$pad);
  let assemblyFormat = "$target `operands` `=` $operands `pad` `=` $pad "
                       "attr-dict `:` type($target)";
  let hasVerifier = 1;
}

def RewriteWindowAccessesOp : Op<Transform_Dialect,
    "tessel.rewrite_window_accesses",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Reads the window indices of linalg ops through strided views";
  let description = [{
    Rewrites every target op and linalg op under them (on buffers, static
    loop ranges) whose indexing maps are not all projected permutations, such as
    a convolution's `oh * s + kh`, into a `linalg.generic` that reads
    strided `memref.subview`s through projected permutations, when each
    index has at most one loop of more than one iteration
    (docs/Materialization.md, "Window accesses"). Ops it cannot rewrite are
    left as they are. Vectorization can then handle them, and their
    accumulators can stay in registers. Consumes the target handle.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def HoistKernelAccumulatorsOp : Op<Transform_Dialect,
    "tessel.hoist_kernel_accumulators",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Hoists a kernel's accumulator transfers out of its loops";
  let description = [{
    Applies upstream's hoisting of redundant vector transfers
    (`transform.structured.hoist_redundant_vector_transfers`) to each target
    `gpu.launch`, judging each buffer by its uses inside that launch only:
    upstream refuses any buffer that a view reads anywhere, and the buffer
    a kernel accumulates into is often read through views by a later kernel
    (split-K's combining kernel, a reduction after a matmul), which kept
    the accumulators in global memory, a load and a store per FMA. Kernels
    run one after another, so accesses outside the launch cannot overlap
    its loops. For kernels whose threads own their accumulators
    (`tessel.accumulators = 1`; docs/Materialization.md). Other targets are
    ignored.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def HoistVectorTransfersInKernelsOp : Op<Transform_Dialect,
    "tessel.hoist_vector_transfers_in_kernels",
    [FunctionalStyleTransformOpTrait,
     DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Hoists redundant vector transfers kernel by kernel";
  let description = [{
    What `transform.structured.hoist_redundant_vector_transfers` does to
    each target function, with the same rule (upstream's
    `linalg::hoistRedundantVectorTransfers`), applied to each `gpu.launch`
    of the function first and then once to the whole function. Upstream's
    rule walks its root again after every hoisted pair, so on a model of
    a thousand kernels in one function each hoist walked the whole model:
    kernel by kernel, each walk covers one kernel, and the final walk of
    the function finds nothing left to hoist in them. Returns the
    functions.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$transformed);
  let assemblyFormat =
      "$target attr-dict `:` functional-type($target, $transformed)";
}

def ConvertToMmaSyncOp : Op<Transform_Dialect,
    "tessel.convert_to_mma_sync",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Turns the warp-level contractions of tensor_core kernels "
                "into mma.sync";
  let description = [{
    In every target op (a `gpu.launch` of a `tensor_core` schedule, after
    vectorization and accumulator hoisting), forwards the init into the
    accumulators, folds input extensions into the contractions and rewrites
    them with upstream VectorToGPU (NVGPU flavour): `nvgpu.mma.sync` on
    per-lane fragments, `nvgpu.ldmatrix` for operand tiles in shared memory.
    A definite failure when a contraction is left.

    Contractions of f32 inputs become TF32 `mma.sync` (m16n8k8, inputs
    rounded to a 10-bit mantissa) only with `allow_tf32`; without it they
    are a definite failure. Contractions of bf16 inputs are converted on
    their staged tiles viewed as f16 (the same fragment layouts, which is
    all upstream knows) and become bf16 `mma.sync` ops
    (`tessel-lower-bf16-mma-sync` lowers them to NVVM).
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       UnitAttr:$allow_tf32);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMOPS_TESSELTRANSFORMOPS_TD
