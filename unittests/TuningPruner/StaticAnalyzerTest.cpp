//===- StaticAnalyzerTest.cpp - Tests of Pruner's static analyzer ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Pruner/StaticAnalyzer.h"
#include "tessel/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr StringLiteral kMatmul = R"mlir(
func.func @mm(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>,
              %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
                     outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
)mlir";

/// The H100 parameters of both forms, written out.
PsaParameters h100(PsaForm form) {
  PsaParameters p;
  p.peakGflops = 66900;
  p.bandwidthGbps = 3350;
  p.smCount = 132;
  p.activeBlocksPerSm = 1;
  p.activeWarpsPerSm = 4;
  p.warpSize = 32;
  p.registerCap = form == PsaForm::Paper ? 255 : 128;
  p.registersPerSm = form == PsaForm::Paper ? 65536 : 0;
  p.transactionBytes = 32;
  return p;
}

//===----------------------------------------------------------------------===//
// The penalty formulas
//===----------------------------------------------------------------------===//

TEST(PsaFormulaTest, RegisterPenalty) {
  EXPECT_DOUBLE_EQ(getRegisterPenalty(300, 128), 300.0 / 128);
  EXPECT_DOUBLE_EQ(getRegisterPenalty(128, 128), 1);
  EXPECT_DOUBLE_EQ(getRegisterPenalty(9, 255), 1);
}

TEST(PsaFormulaTest, RegisterCap) {
  // Paper form: 65536 registers over the block's warps, at most 255.
  PsaParameters paper = h100(PsaForm::Paper);
  EXPECT_DOUBLE_EQ(getRegisterCap(paper, 128), 255);
  EXPECT_DOUBLE_EQ(getRegisterCap(paper, 256), 255);
  EXPECT_DOUBLE_EQ(getRegisterCap(paper, 512), 128);
  EXPECT_DOUBLE_EQ(getRegisterCap(paper, 1024), 64);
  // 600 threads are 19 warps (608 threads): 65536 / 608 = 107.
  EXPECT_DOUBLE_EQ(getRegisterCap(paper, 600), 107);
  // Code form: 128 whatever the block.
  PsaParameters code = h100(PsaForm::Code);
  EXPECT_DOUBLE_EQ(getRegisterCap(code, 1024), 128);
}

TEST(PsaFormulaTest, Alpha) {
  // Paper: 1 + n_reg / n_com; code: 1 + 1 / (1 + n_com / n_reg).
  EXPECT_DOUBLE_EQ(getPaperAlpha(1284, 2048), 1 + 1284.0 / 2048);
  EXPECT_DOUBLE_EQ(getCodeAlpha(1284, 2048), 1 + 1 / (1 + 2048.0 / 1284));
  EXPECT_DOUBLE_EQ(getPaperAlpha(1000, 0), 1);
  EXPECT_DOUBLE_EQ(getCodeAlpha(0, 2048), 1);
  // Equal accesses and operations: 2 and 1.5.
  EXPECT_DOUBLE_EQ(getPaperAlpha(64, 64), 2);
  EXPECT_DOUBLE_EQ(getCodeAlpha(64, 64), 1.5);
}

TEST(PsaFormulaTest, WarpPenalty) {
  EXPECT_DOUBLE_EQ(getWarpPenalty(128, 32), 1);
  EXPECT_DOUBLE_EQ(getWarpPenalty(48, 32), 48.0 / 64);
  EXPECT_DOUBLE_EQ(getWarpPenalty(1, 32), 1.0 / 32);
  EXPECT_DOUBLE_EQ(getWarpPenalty(100, 32), 100.0 / 128);
}

TEST(PsaFormulaTest, KernelPenaltyBlockGranular) {
  // B >= B* = 132 * 1: whole waves of blocks.
  PsaParameters p = h100(PsaForm::Paper);
  EXPECT_DOUBLE_EQ(getKernelPenalty(264, 128, p, true), 1);
  EXPECT_DOUBLE_EQ(getKernelPenalty(200, 128, p, false),
                   200.0 / 264);
  EXPECT_DOUBLE_EQ(getKernelPenalty(133, 1024, p, true),
                   133.0 / 264);
  // n_b = 2 doubles the wave.
  p.activeBlocksPerSm = 2;
  EXPECT_DOUBLE_EQ(getKernelPenalty(200, 128, p, false),
                   200.0 / 264);
  EXPECT_DOUBLE_EQ(getKernelPenalty(300, 128, p, true),
                   300.0 / 528);
}

TEST(PsaFormulaTest, KernelPenaltyWarpGranular) {
  // B < 132: W / (ceil(W / W*) * W*) with W* = 132 * 4 = 528.
  PsaParameters p = h100(PsaForm::Paper);
  // 16 blocks of 4 warps.
  EXPECT_DOUBLE_EQ(getKernelPenalty(16, 128, p, true), 64.0 / 528);
  EXPECT_DOUBLE_EQ(getKernelPenalty(16, 128, p, false), 64.0 / 528);
  // 16 blocks of 8 warps: capped, at most n_w = 4 per block count.
  EXPECT_DOUBLE_EQ(getKernelPenalty(16, 256, p, false), 128.0 / 528);
  EXPECT_DOUBLE_EQ(getKernelPenalty(16, 256, p, true), 64.0 / 528);
  // 100 blocks of 33 threads are 2 warps each.
  EXPECT_DOUBLE_EQ(getKernelPenalty(100, 33, p, true), 200.0 / 528);
  // 131 blocks of 32 warps: 4192 warps, 8 waves of 528; capped 524 warps.
  EXPECT_DOUBLE_EQ(getKernelPenalty(131, 1024, p, false),
                   4192.0 / (8 * 528));
  EXPECT_DOUBLE_EQ(getKernelPenalty(131, 1024, p, true), 524.0 / 528);
}

TEST(PsaFormulaTest, MemoryPenalty) {
  EXPECT_DOUBLE_EQ(getMemoryPenalty(16, 32), 0.5);
  EXPECT_DOUBLE_EQ(getMemoryPenalty(48, 32), 0.75);
  EXPECT_DOUBLE_EQ(getMemoryPenalty(64, 32), 1);
  EXPECT_DOUBLE_EQ(getMemoryPenalty(4, 128), 4.0 / 128);
}

TEST(PsaFormulaTest, ParsesSwitches) {
  llvm::Expected<PsaPenalties> p = PsaPenalties::parseDisabled("kernel, mem");
  ASSERT_TRUE(static_cast<bool>(p)) << llvm::toString(p.takeError());
  EXPECT_TRUE(p->alpha && p->reg && p->warp);
  EXPECT_FALSE(p->kernel || p->mem);
  llvm::Expected<PsaPenalties> compute = PsaPenalties::parseDisabled("compute");
  ASSERT_TRUE(static_cast<bool>(compute));
  EXPECT_FALSE(compute->alpha || compute->reg || compute->warp ||
               compute->kernel);
  EXPECT_TRUE(compute->mem);
  llvm::Expected<PsaPenalties> bad = PsaPenalties::parseDisabled("warp,regs");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "psa: unknown penalty 'regs' (known: alpha, reg, warp, kernel, "
            "mem, compute)");
  EXPECT_FALSE(static_cast<bool>(parsePsaForm("papers")));
  llvm::consumeError(parsePsaForm("papers").takeError());
  EXPECT_EQ(*parsePsaForm("code"), PsaForm::Code);
}

TEST(PsaFormulaTest, ParametersFromDevice) {
  llvm::Expected<DeviceDescription> device = findDevice("h100");
  ASSERT_TRUE(static_cast<bool>(device)) << llvm::toString(device.takeError());
  for (PsaForm form : {PsaForm::Paper, PsaForm::Code}) {
    PsaParameters p = PsaParameters::fromDevice(*device, form);
    PsaParameters expected = h100(form);
    EXPECT_EQ(p.peakGflops, expected.peakGflops);
    EXPECT_EQ(p.bandwidthGbps, expected.bandwidthGbps);
    EXPECT_EQ(p.smCount, expected.smCount);
    EXPECT_EQ(p.activeBlocksPerSm, expected.activeBlocksPerSm);
    EXPECT_EQ(p.activeWarpsPerSm, expected.activeWarpsPerSm);
    EXPECT_EQ(p.warpSize, expected.warpSize);
    EXPECT_EQ(p.registerCap, expected.registerCap);
    EXPECT_EQ(p.registersPerSm, expected.registersPerSm);
    EXPECT_EQ(p.transactionBytes, expected.transactionBytes);
  }
}

//===----------------------------------------------------------------------===//
// The analyzer on a scheduled matmul
//===----------------------------------------------------------------------===//

class StaticAnalyzerTest : public ::testing::Test {
protected:
  StaticAnalyzerTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kMatmul, &context);
    EXPECT_TRUE(module);
    if (module)
      module->walk([&](linalg::LinalgOp found) { op = found; });
  }

  SketchAttr sketch() {
    return SketchAttr::get(&context, SketchKind::MultiLevelTiling, "SSSRRSRS",
                           {0, 1}, true, 0);
  }

  /// Blocks 4x4 (16), vthreads 2x1, threads 8x16 (128), register tile 2x1,
  /// K staged in steps of 8 (32 steps), R1 = 2, R2 = 4.
  ConfigAttr config() {
    return ConfigAttr::get(&context,
                           {{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {32, 2, 4}},
                           64, {1, 1});
  }

  PsaEstimate analyze(const PsaParameters &params, PsaOptions options) {
    StaticAnalyzer analyzer(params, options);
    llvm::Expected<PsaEstimate> estimate =
        analyzer.analyze(op, {}, sketch(), config());
    if (!estimate) {
      ADD_FAILURE() << llvm::toString(estimate.takeError());
      return {};
    }
    return *estimate;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  linalg::LinalgOp op;
};

// Counts of the matmul (M=128, N=64, K=256) under config():
// - compute: 2*128*64*256 = 4194304 flops on 16 blocks of 128 threads, 2048
//   flops per thread. A thread's spatial register tile is 4 (m: vthread 2 x
//   register 2) by 1 (n): registers A 4 + B 1 + C 4 = 9. Over all its loops
//   (k = 32 * 2 * 4 = 256): accesses A 4*256 + B 256 + C 4 = 1284.
// - write-back of C: 8192 floats, runs of the block's 16 columns (64 B).
// - copy A: 16 blocks x 32 steps x 256 elements = 131072 floats, runs of the
//   tile's 8 k (32 B); copy B: 16 x 32 x 128 = 65536 floats, runs of 16 n
//   (64 B).
constexpr double kFlops = 4194304, kCopyA = 131072, kCopyB = 65536,
                 kOut = 8192;

TEST_F(StaticAnalyzerTest, PaperForm) {
  PsaEstimate e = analyze(h100(PsaForm::Paper), {});
  ASSERT_EQ(e.statements.size(), 3u);
  const PsaStatement &c = e.statements[0];
  EXPECT_EQ(c.kind, "compute");
  EXPECT_DOUBLE_EQ(c.flops, kFlops);
  EXPECT_DOUBLE_EQ(c.flopsPerThread, 2048);
  EXPECT_DOUBLE_EQ(c.registers, 9);
  EXPECT_DOUBLE_EQ(c.registerAccesses, 1284);
  EXPECT_DOUBLE_EQ(c.alpha, 1 + 1284.0 / 2048);
  EXPECT_DOUBLE_EQ(c.pReg, 1);
  EXPECT_DOUBLE_EQ(c.pWarp, 1);
  EXPECT_DOUBLE_EQ(c.pKernel, 64.0 / 528);
  EXPECT_DOUBLE_EQ(c.pMem, 1);
  EXPECT_DOUBLE_EQ(c.memory, kOut * 4);
  double lc = kFlops * (1 + 1284.0 / 2048) / (66900e9 * 64.0 / 528);
  EXPECT_DOUBLE_EQ(c.computeSeconds, lc);
  EXPECT_DOUBLE_EQ(c.memorySeconds, kOut * 4 / 3350e9);
  EXPECT_DOUBLE_EQ(c.latency, lc + kOut * 4 / 3350e9);

  const PsaStatement &a = e.statements[1];
  EXPECT_EQ(a.kind, "copy0");
  EXPECT_DOUBLE_EQ(a.flops, 0);
  EXPECT_DOUBLE_EQ(a.computeSeconds, 0);
  EXPECT_DOUBLE_EQ(a.memory, kCopyA * 4);
  EXPECT_DOUBLE_EQ(a.latency, kCopyA * 4 / 3350e9);
  EXPECT_DOUBLE_EQ(e.statements[2].memory, kCopyB * 4);
  EXPECT_DOUBLE_EQ(e.latency,
                   c.latency + (kCopyA + kCopyB) * 4 / 3350e9);
}

TEST_F(StaticAnalyzerTest, MemoryPenaltyPerBuffer) {
  // 128-byte transactions: runs of 64 B (C, copy B) are half used, of 32 B
  // (copy A) a quarter.
  PsaParameters p = h100(PsaForm::Paper);
  p.transactionBytes = 128;
  PsaEstimate e = analyze(p, {});
  ASSERT_EQ(e.statements.size(), 3u);
  EXPECT_DOUBLE_EQ(e.statements[0].pMem, 0.5);
  EXPECT_DOUBLE_EQ(e.statements[0].memorySeconds, kOut * 4 / 0.5 / 3350e9);
  EXPECT_DOUBLE_EQ(e.statements[1].pMem, 0.25);
  EXPECT_DOUBLE_EQ(e.statements[1].memorySeconds,
                   kCopyA * 4 / 0.25 / 3350e9);
  EXPECT_DOUBLE_EQ(e.statements[2].pMem, 0.5);
  // Switched off, P_mem is 1.
  PsaOptions off;
  off.penalties.mem = false;
  PsaEstimate plain = analyze(p, off);
  EXPECT_DOUBLE_EQ(plain.statements[1].pMem, 1);
  EXPECT_DOUBLE_EQ(plain.statements[1].memorySeconds, kCopyA * 4 / 3350e9);
}

TEST_F(StaticAnalyzerTest, CodeForm) {
  PsaOptions options;
  options.form = PsaForm::Code;
  PsaEstimate e = analyze(h100(PsaForm::Code), options);
  ASSERT_EQ(e.statements.size(), 3u);
  const PsaStatement &c = e.statements[0];
  double alpha = 1 + 1 / (1 + 2048.0 / 1284);
  EXPECT_DOUBLE_EQ(c.alpha, alpha);
  EXPECT_DOUBLE_EQ(c.pKernel, 64.0 / 528);
  // Memory in elements; the maximum of the two terms.
  EXPECT_DOUBLE_EQ(c.memory, kOut);
  double lc = kFlops * alpha / (66900e9 * 64.0 / 528);
  EXPECT_DOUBLE_EQ(c.latency, std::max(lc, kOut / 3350e9));
  EXPECT_DOUBLE_EQ(e.statements[1].latency, kCopyA / 3350e9);
  EXPECT_DOUBLE_EQ(e.latency, lc + (kCopyA + kCopyB) / 3350e9);
}

TEST_F(StaticAnalyzerTest, PenaltiesSwitchOff) {
  PsaOptions options;
  options.penalties.alpha = false;
  options.penalties.kernel = false;
  PsaParameters p = h100(PsaForm::Paper);
  // A cap of 6 registers makes P_reg = 9 / 6.
  p.registerCap = 6;
  PsaEstimate e = analyze(p, options);
  const PsaStatement &c = e.statements[0];
  EXPECT_DOUBLE_EQ(c.alpha, 1);
  EXPECT_DOUBLE_EQ(c.pKernel, 1);
  EXPECT_DOUBLE_EQ(c.pReg, 1.5);
  EXPECT_DOUBLE_EQ(c.computeSeconds, kFlops * 1.5 / 66900e9);
}

TEST_F(StaticAnalyzerTest, RejectsBadInput) {
  PsaParameters p = h100(PsaForm::Paper);
  p.bandwidthGbps = 0;
  StaticAnalyzer bad(p, PsaOptions{});
  llvm::Expected<PsaEstimate> e = bad.analyze(op, {}, sketch(), config());
  ASSERT_FALSE(static_cast<bool>(e));
  EXPECT_EQ(llvm::toString(e.takeError()),
            "psa: parameter bandwidth GB/s (T_m) must be positive, got 0");

  StaticAnalyzer good(h100(PsaForm::Paper), PsaOptions{});
  ConfigAttr wrong = ConfigAttr::get(
      &context, {{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {16, 2, 4}}, 64, {1, 1});
  llvm::Expected<PsaEstimate> misfit =
      good.analyze(op, {}, sketch(), wrong);
  ASSERT_FALSE(static_cast<bool>(misfit));
  EXPECT_EQ(llvm::toString(misfit.takeError()),
            "psa: the schedule does not fit the op (or a shape is dynamic)");
}

} // namespace
