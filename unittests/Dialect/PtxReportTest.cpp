//===- PtxReportTest.cpp - The static kernel report of PTX ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/PtxReport.h"

#include "gtest/gtest.h"

using namespace mlir::tessel;

namespace {

// Two kernels: the first a staging loop whose body LLVM laid out before its
// header (the back edge is the `bra.uni` at the end), the second straight
// code.
constexpr const char *kPtx = R"ptx(
.version 8.0
.target sm_90
.visible .entry staged(
	.param .u64 .ptr .align 1 staged_param_0
)
.maxntid 128, 1, 1
{
	ld.global.v4.f32 	{%r1, %r2, %r3, %r4}, [%rd1];
	st.shared.v4.b32 	[%rd2], {%r1, %r2, %r3, %r4};
	bar.sync 	0;
	bra.uni 	$L__BB0_2;
$L__BB0_1:
	ld.shared.v4.b32 	{%r5, %r6, %r7, %r8}, [%rd3];
	ld.shared.b32 	%r9, [%rd4];
	fma.rn.f32 	%r10, %r5, %r9, %r10;
	fma.rn.f32 	%r11, %r6, %r9, %r11;
	fma.rn.f32 	%r12, %r7, %r9, %r12;
	fma.rn.f32 	%r13, %r8, %r9, %r13;
	@%p1 bra 	$L__BB0_3;
$L__BB0_2:
	cp.async.wait_group 	0;
	bar.sync 	0;
	@!%p2 cp.async.cg.shared.global [%rd5], [%rd6], 16;
	cp.async.commit_group;
	bra.uni 	$L__BB0_1;
$L__BB0_3:
	mul.rn.f32 	%r14, %r10, %r11;
	st.global.v2.f32 	[%rd7], {%r14, %r12};
	ld.global.nc.b16 	%rs1, [%rd8];
	ret;
}
.visible .entry straight(
	.param .u64 .ptr .align 1 straight_param_0
)
{
	ld.global.b32 	%r1, [%rd1];
	mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r1, %r2, %r3, %r4};
	st.global.b32 	[%rd1], %r1;
	ret;
}
)ptx";

TEST(PtxReportTest, CountsEachKernelsInstructionsAndItsLoops) {
  std::map<std::string, PtxCounts> kernels = countPtxKernels(kPtx);
  ASSERT_EQ(kernels.size(), 2u);
  PtxCounts expected = {{"bar_sync", 2},         {"bar_sync_in_loops", 1},
                        {"cp_async", 1},         {"fma_f32", 4},
                        {"fma_f32_in_loops", 4}, {"ld_global_128", 1},
                        {"ld_global_16", 1},     {"ld_shared_128", 1},
                        {"ld_shared_32", 1},     {"ld_shared_in_loops", 2},
                        {"mul_f32", 1},          {"st_global_64", 1},
                        {"st_shared_128", 1}};
  EXPECT_EQ(kernels["staged"], expected);
  EXPECT_DOUBLE_EQ(getFmaPerSharedLoad(kernels["staged"]), 2.0);
  PtxCounts straight = {{"bar_sync", 0},         {"bar_sync_in_loops", 0},
                        {"fma_f32", 0},          {"fma_f32_in_loops", 0},
                        {"ld_global_32", 1},     {"ld_shared_in_loops", 0},
                        {"mma", 1},              {"st_global_32", 1}};
  EXPECT_EQ(kernels["straight"], straight);
  EXPECT_DOUBLE_EQ(getFmaPerSharedLoad(kernels["straight"]), 0.0);
}

TEST(PtxReportTest, NoKernelsInTextWithoutEntries) {
  EXPECT_TRUE(countPtxKernels(".version 8.0\n.target sm_90\n").empty());
}

} // namespace
