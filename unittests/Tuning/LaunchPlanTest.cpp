//===- LaunchPlanTest.cpp - Evaluating compiled host code -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/InitAllDialects.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Tuning/Measure/LaunchPlan.h"
#include "tessel/Tuning/Measure/Reference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr const char *kMatmul = R"mlir(
func.func @forward(%a: tensor<32x48xf32>, %b: tensor<48x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
})mlir";

class LaunchPlanTest : public ::testing::Test {
protected:
  LaunchPlanTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source` and returns the first diagnostic of extracting a plan
  /// of @f from it.
  std::string planError(StringRef source) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    std::string message;
    ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
      if (message.empty())
        message = d.str();
      return success();
    });
    EXPECT_TRUE(failed(extractLaunchPlan(*module, "f", {}, {})));
    return message;
  }

  MLIRContext context;
};

TEST_F(LaunchPlanTest, CompiledMatmulBecomesOneLaunch) {
#if !TESSEL_HAVE_PTXAS
  GTEST_SKIP() << "no ptxas: cubins cannot be built";
#endif
  OwningOpRef<ModuleOp> source = parseSourceString<ModuleOp>(kMatmul, &context);
  ASSERT_TRUE(source);
  OwningOpRef<ModuleOp> compiled(cast<ModuleOp>((*source)->clone()));
  PassManager pm(&context);
  auto options = TesselToCudaOptions::createFromString("chip=sm_90 format=bin");
  ASSERT_TRUE(options);
  ASSERT_TRUE(succeeded(buildTesselToCudaPipeline(pm, *options)));
  ASSERT_TRUE(succeeded(pm.run(*compiled)));

  auto func = *source->getOps<func::FuncOp>().begin();
  FailureOr<LaunchPlan> plan = extractLaunchPlan(
      *compiled, "forward", func.getArgumentTypes(), func.getResultTypes());
  ASSERT_TRUE(succeeded(plan));

  // The two arguments and the result's allocation.
  ASSERT_EQ(plan->buffers.size(), 3u);
  EXPECT_EQ(plan->buffers[0].kind, PlanBuffer::Kind::Argument);
  EXPECT_EQ(plan->buffers[0].bytes, 32 * 48 * 4);
  EXPECT_EQ(plan->buffers[1].argIndex, 1);
  EXPECT_EQ(plan->buffers[1].bytes, 48 * 64 * 4);
  EXPECT_EQ(plan->buffers[2].kind, PlanBuffer::Kind::Temporary);
  EXPECT_GE(plan->buffers[2].bytes, 32 * 64 * 4);

  // One kernel: the matmul fills its own accumulators.
  SmallVector<const PlanLaunch *> launches = plan->getLaunches();
  ASSERT_EQ(launches.size(), 1u);
  for (const PlanLaunch *launch : launches) {
    EXPECT_EQ(plan->binaries.count(launch->module), 1u);
    EXPECT_EQ(plan->binaries.at(launch->module).substr(0, 4), "\x7f" "ELF");
    EXPECT_GT(launch->resources.registers, 0);
    ASSERT_TRUE(launch->facts.has_value()) << launch->module;
    // Every kernel writes the result buffer.
    EXPECT_TRUE(llvm::any_of(launch->params, [](const PlanParam &p) {
      return p.kind == PlanParam::Kind::Pointer && p.buffer == 2;
    }));
  }
  EXPECT_EQ(launches[0]->facts->opName, "matmul");
  EXPECT_DOUBLE_EQ(launches[0]->facts->flops, 2.0 * 32 * 64 * 48);
  EXPECT_EQ(launches[0]->facts->globalBytesWritten, 32 * 64 * 4);
  EXPECT_EQ(launches[0]->facts->globalBytesRead, (32 * 48 + 48 * 64) * 4);

  ASSERT_EQ(plan->outputs.size(), 1u);
  EXPECT_EQ(plan->outputs[0].buffer, 2);
  EXPECT_EQ(plan->outputs[0].dtype, "f32");
  EXPECT_EQ(plan->outputs[0].getNumElements(), 32 * 64);
  EXPECT_EQ(plan->outputs[0].offset % 64, 0);
}

TEST_F(LaunchPlanTest, HostLoopsAreRejected) {
  EXPECT_EQ(planError(R"mlir(
    module attributes {gpu.container_module} {
      llvm.func @f() {
        llvm.br ^bb1
      ^bb1:
        llvm.br ^bb1
      }
    })mlir"),
            "cannot plan host code with control flow (a loop left on the "
            "host)");
}

TEST_F(LaunchPlanTest, HostBranchesOnUnknownValuesAreRejected) {
  EXPECT_EQ(planError(R"mlir(
    module attributes {gpu.container_module} {
      llvm.func @f() {
        %c = llvm.mlir.poison : i1
        llvm.cond_br %c, ^bb1, ^bb2
      ^bb1:
        llvm.return
      ^bb2:
        llvm.return
      }
    })mlir"),
            "cannot plan host code with control flow (a branch on a value not "
            "known before the run)");
}

/// The host checks of `cf.assert` (the buffer alignment the kernels assume)
/// are evaluated: a passing one is followed, a failing one is an error that
/// quotes its message, and its message is no buffer of the plan.
TEST_F(LaunchPlanTest, HostChecksAreEvaluated) {
  constexpr const char *kCheck = R"mlir(
    module attributes {gpu.container_module} {
      llvm.mlir.global private constant @msg("buffer misaligned\00") {addr_space = 0 : i32}
      llvm.func @puts(!llvm.ptr)
      llvm.func @abort()
      llvm.func @malloc(i64) -> !llvm.ptr
      llvm.func @f() {
        %m = llvm.mlir.addressof @msg : !llvm.ptr
        %size = llvm.mlir.constant(4096 : i64) : i64
        %low = llvm.mlir.constant(LOW : i64) : i64
        %zero = llvm.mlir.constant(0 : i64) : i64
        %p = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
        %i = llvm.ptrtoint %p : !llvm.ptr to i64
        %q = llvm.add %i, %low : i64
        %mask = llvm.mlir.constant(15 : i64) : i64
        %bits = llvm.and %q, %mask : i64
        %ok = llvm.icmp "eq" %bits, %zero : i64
        llvm.cond_br %ok, ^bb1, ^bb2
      ^bb1:
        llvm.return
      ^bb2:
        llvm.call @puts(%m) : (!llvm.ptr) -> ()
        llvm.call @abort() : () -> ()
        llvm.unreachable
      }
    })mlir";
  std::string aligned = std::string(kCheck);
  aligned.replace(aligned.find("LOW"), 3, "32");
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(aligned, &context);
  ASSERT_TRUE(module);
  FailureOr<LaunchPlan> plan = extractLaunchPlan(*module, "f", {}, {});
  ASSERT_TRUE(succeeded(plan));
  EXPECT_EQ(plan->buffers.size(), 1u); // the malloc, not the message
  std::string misaligned = std::string(kCheck);
  misaligned.replace(misaligned.find("LOW"), 3, "4");
  EXPECT_EQ(planError(misaligned),
            "cannot plan: a check of the host code fails: buffer misaligned");
}

TEST_F(LaunchPlanTest, HostCallsAreRejected) {
  EXPECT_EQ(planError(R"mlir(
    module attributes {gpu.container_module} {
      llvm.func @puts(!llvm.ptr) -> i32
      llvm.func @f() {
        %0 = llvm.mlir.zero : !llvm.ptr
        %1 = llvm.call @puts(%0) : (!llvm.ptr) -> i32
        llvm.return
      }
    })mlir"),
            "cannot plan host op 'llvm.call': call of @puts");
}

TEST_F(LaunchPlanTest, PtxOnlyModulesAreRejected) {
  EXPECT_EQ(planError(R"mlir(
    module attributes {gpu.container_module} {
      gpu.binary @k [#gpu.object<#nvvm.target, assembly = "ptx">]
      llvm.func @f() {
        llvm.return
      }
    })mlir"),
            "cannot plan: gpu.binary holds no cubin or fatbin (compile with "
            "format=bin or format=fatbin)");
}

// The reference runs each op's reduction loops outside the loop over the
// output's last dimension (for speed); every output element must still add
// its terms in the original order: float sums in that order, to the bit.
TEST_F(LaunchPlanTest, CpuReferenceSumsInTheOpsOrder) {
  OwningOpRef<ModuleOp> source = parseSourceString<ModuleOp>(R"mlir(
    func.func @forward(%a: tensor<37x45xf32>, %b: tensor<45x29xf32>, %x: tensor<45x37xf32>) -> (tensor<37x29xf32>, tensor<37xf32>) {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<37x29xf32>
      %init = linalg.fill ins(%zero : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
      %0 = linalg.matmul ins(%a, %b : tensor<37x45xf32>, tensor<45x29xf32>) outs(%init : tensor<37x29xf32>) -> tensor<37x29xf32>
      %e1 = tensor.empty() : tensor<37xf32>
      %init1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<37xf32>) -> tensor<37xf32>
      %1 = linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>], iterator_types = ["parallel", "reduction"]}
          ins(%x : tensor<45x37xf32>) outs(%init1 : tensor<37xf32>) {
      ^bb0(%v: f32, %acc: f32):
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<37xf32>
      return %0, %1 : tensor<37x29xf32>, tensor<37xf32>
    })mlir", &context);
  ASSERT_TRUE(source);
  auto reference = computeReference(*source, "forward", /*seed=*/3);
  ASSERT_TRUE(static_cast<bool>(reference))
      << llvm::toString(reference.takeError());
  ASSERT_EQ(reference->outputs.size(), 2u);
  auto floats = [](const HostTensor &t) {
    return reinterpret_cast<const float *>(t.data.data());
  };
  const float *a = floats(reference->inputs[0]), *b = floats(reference->inputs[1]),
              *x = floats(reference->inputs[2]);
  const float *c = floats(reference->outputs[0]), *sums = floats(reference->outputs[1]);
  for (int64_t m = 0; m < 37; ++m)
    for (int64_t n = 0; n < 29; ++n) {
      float sum = 0;
      for (int64_t k = 0; k < 45; ++k) {
        volatile float product = a[m * 45 + k] * b[k * 29 + n];
        sum = sum + product;
      }
      ASSERT_EQ(c[m * 29 + n], sum) << "at " << m << ", " << n;
    }
  for (int64_t j = 0; j < 37; ++j) {
    float sum = 0;
    for (int64_t i = 0; i < 45; ++i)
      sum = sum + x[i * 37 + j];
    ASSERT_EQ(sums[j], sum) << "at " << j;
  }
}

TEST_F(LaunchPlanTest, CpuReferenceComputesTheMatmul) {
  OwningOpRef<ModuleOp> source = parseSourceString<ModuleOp>(kMatmul, &context);
  ASSERT_TRUE(source);
  auto reference = computeReference(*source, "forward", /*seed=*/7);
  ASSERT_TRUE(static_cast<bool>(reference))
      << llvm::toString(reference.takeError());
  ASSERT_EQ(reference->inputs.size(), 2u);
  ASSERT_EQ(reference->outputs.size(), 1u);
  const float *a = reinterpret_cast<const float *>(reference->inputs[0].data.data());
  const float *b = reinterpret_cast<const float *>(reference->inputs[1].data.data());
  const float *c = reinterpret_cast<const float *>(reference->outputs[0].data.data());
  for (int64_t i = 0; i < 32 * 48; ++i) {
    EXPECT_GE(std::fabs(a[i]), 0.5f);
    EXPECT_LT(std::fabs(a[i]), 1.5f);
  }
  for (int64_t m = 0; m < 32; ++m)
    for (int64_t n = 0; n < 64; ++n) {
      double sum = 0;
      for (int64_t k = 0; k < 48; ++k)
        sum += double(a[m * 48 + k]) * b[k * 64 + n];
      ASSERT_NEAR(c[m * 64 + n], sum, 1e-4) << m << "," << n;
    }
  // Inputs depend on the seed only.
  auto again = makeRandomInputs(
      (*source->getOps<func::FuncOp>().begin()).getArgumentTypes(), 7);
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_EQ((*again)[1].data, reference->inputs[1].data);
}

/// An i1 operand (torch-mlir's masks and adaptive pools take them) is a
/// byte an element holding 0 or 1: random inputs of both values, and the CPU
/// reference reads them as the kernels do.
TEST_F(LaunchPlanTest, CpuReferenceTakesI1Masks) {
  constexpr const char *kMaskedCopy = R"mlir(
func.func @forward(%mask: tensor<16x32xi1>, %x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%mask, %x : tensor<16x32xi1>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%m: i1, %v: f32, %o: f32):
    %s = arith.select %m, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
})mlir";
  OwningOpRef<ModuleOp> source =
      parseSourceString<ModuleOp>(kMaskedCopy, &context);
  ASSERT_TRUE(source);
  auto reference = computeReference(*source, "forward", /*seed=*/5);
  ASSERT_TRUE(static_cast<bool>(reference))
      << llvm::toString(reference.takeError());
  ASSERT_EQ(reference->inputs.size(), 2u);
  EXPECT_EQ(reference->inputs[0].dtype, "i1");
  ASSERT_EQ(reference->inputs[0].data.size(), 16u * 32u);
  const uint8_t *mask = reference->inputs[0].data.data();
  const float *x =
      reinterpret_cast<const float *>(reference->inputs[1].data.data());
  const float *r =
      reinterpret_cast<const float *>(reference->outputs[0].data.data());
  int64_t ones = 0;
  for (int64_t i = 0; i < 16 * 32; ++i) {
    ASSERT_LE(mask[i], 1) << "at " << i;
    ones += mask[i];
    ASSERT_EQ(r[i], mask[i] ? x[i] : 0.0f) << "at " << i;
  }
  EXPECT_GT(ones, 0);
  EXPECT_LT(ones, 16 * 32);
}

} // namespace

namespace {

/// Every module the GPU check verifies on the GPU (benchmarks/gpu-check):
/// its CPU reference runs, and its compiled plan has one output per result,
/// of the reference's size, and only launches with recorded facts.
class GpuCheckModuleTest : public LaunchPlanTest,
                           public ::testing::WithParamInterface<std::string> {};

TEST_P(GpuCheckModuleTest, ReferenceAndPlanAgree) {
  std::string path = std::string(TESSEL_SOURCE_DIR) + "/benchmarks/gpu-check/" +
                     GetParam();
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(static_cast<bool>(buffer)) << path;
  OwningOpRef<ModuleOp> source =
      parseSourceString<ModuleOp>((*buffer)->getBuffer(), &context);
  ASSERT_TRUE(source) << path;
  auto func = *source->getOps<func::FuncOp>().begin();
  bool large = false;
  for (Type type : func.getArgumentTypes())
    large |= cast<ShapedType>(type).getNumElements() > (1 << 16);
  std::vector<HostTensor> outputs;
  if (!large) {
    auto reference = computeReference(*source, func.getSymName(), 1);
    ASSERT_TRUE(static_cast<bool>(reference))
        << llvm::toString(reference.takeError());
    outputs = reference->outputs;
    for (const HostTensor &out : outputs)
      for (size_t i = 0; i < out.data.size(); i += 4) {
        float v;
        std::memcpy(&v, out.data.data() + i, 4);
        ASSERT_TRUE(std::isfinite(v)) << GetParam() << " element " << i / 4;
      }
  }
#if !TESSEL_HAVE_PTXAS
  GTEST_SKIP() << "no ptxas: cubins cannot be built";
#endif
  OwningOpRef<ModuleOp> compiled(cast<ModuleOp>((*source)->clone()));
  PassManager pm(&context);
  // TF32 schedules compile only when allowed, as gpu-check-run.sh runs them.
  bool tf32 = llvm::StringRef(GetParam()).contains("tf32");
  auto options = TesselToCudaOptions::createFromString(
      tf32 ? "chip=sm_90 format=bin allow-tf32=true" : "chip=sm_90 format=bin");
  ASSERT_TRUE(succeeded(buildTesselToCudaPipeline(pm, *options)));
  ASSERT_TRUE(succeeded(pm.run(*compiled))) << GetParam();
  FailureOr<LaunchPlan> plan =
      extractLaunchPlan(*compiled, func.getSymName(), func.getArgumentTypes(),
                        func.getResultTypes());
  ASSERT_TRUE(succeeded(plan)) << GetParam();
  // The launch facts say TF32, so its results get TF32's tolerance.
  EXPECT_EQ(llvm::any_of(plan->getLaunches(),
                         [](const PlanLaunch *launch) {
                           return launch->facts && launch->facts->tf32;
                         }),
            tf32)
      << GetParam();
  ASSERT_EQ(plan->outputs.size(), func.getNumResults());
  for (auto [index, output] : llvm::enumerate(plan->outputs)) {
    EXPECT_EQ(output.getNumElements(),
              cast<ShapedType>(func.getResultTypes()[index]).getNumElements());
    if (!outputs.empty()) {
      EXPECT_EQ(output.getNumElements() * getDTypeBytes(output.dtype),
                static_cast<int64_t>(outputs[index].data.size()));
    }
  }
  for (const PlanLaunch *launch : plan->getLaunches())
    EXPECT_TRUE(launch->facts.has_value()) << GetParam() << " " << launch->module;
}

std::vector<std::string> listGpuCheckModules() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const char *dir : {"ops", "."}) {
    std::string root =
        std::string(TESSEL_SOURCE_DIR) + "/benchmarks/gpu-check/" + dir;
    for (llvm::sys::fs::directory_iterator it(root, ec), end; it != end && !ec;
         it.increment(ec)) {
      if (llvm::StringRef(it->path()).ends_with(".mlir"))
        names.push_back((llvm::StringRef(dir) == "." ? "" : std::string(dir) + "/") +
                        llvm::sys::path::filename(it->path()).str());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(
    GpuCheck, GpuCheckModuleTest, ::testing::ValuesIn(listGpuCheckModules()),
    [](const ::testing::TestParamInfo<std::string> &info) {
      std::string name = info.param;
      for (char &c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
          c = '_';
      return name;
    });

} // namespace
