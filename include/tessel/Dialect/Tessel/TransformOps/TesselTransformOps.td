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
    stores its records (docs/SearchSpace.md), equals `workload`. The key
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

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMOPS_TESSELTRANSFORMOPS_TD
