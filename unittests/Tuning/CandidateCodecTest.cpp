//===- CandidateCodecTest.cpp - Candidates and results as text ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Measure/CandidateCodec.h"

#include "tessel/Tuning/Measure/LaunchPlan.h"
#include "tessel/Tuning/Measure/Reference.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// A compiled candidate with every kind of field: buffers of each kind,
/// binary bytes (zeros and 0xFF included), a copy, parameters of each kind,
/// facts on one launch only, and reference data.
MeasureCandidate makeCompiledCandidate() {
  MeasureCandidate candidate;
  candidate.key = "mm \"tile\" 64x64";
  candidate.gridBlocks = 256;
  candidate.blockThreads = 128;
  candidate.resources = {"mm_kernel", 96, 8, 4, 24576, 16};
  candidate.facts.opName = "matmul";
  candidate.facts.flops = 2.0 * 1024 * 1024 * 1024 / 3;
  candidate.facts.globalBytesRead = 8 << 20;
  candidate.facts.vectorWidth = 4;
  candidate.facts.loadLaneUse = 0.75;
  candidate.facts.pipelineStages = 3;
  candidate.facts.loadsPerStep = 6;
  candidate.planFlops = 1e9 + 0.5;

  auto plan = std::make_shared<LaunchPlan>();
  PlanBuffer argument;
  argument.kind = PlanBuffer::Kind::Argument;
  argument.bytes = 4096;
  argument.argIndex = 1;
  PlanBuffer constant;
  constant.kind = PlanBuffer::Kind::Constant;
  constant.bytes = 4;
  constant.data = {0, 0xFF, 0x80, 7};
  plan->buffers = {argument, PlanBuffer(), constant};
  plan->binaries["mm_module"] = std::string("\x7F"
                                            "ELF\0\x01\xFF",
                                            7);
  PlanLaunch launch;
  launch.module = "mm_module";
  launch.kernel = "mm_kernel";
  launch.grid = {16, 16, 1};
  launch.block = {128, 1, 1};
  launch.sharedBytes = 49152;
  PlanParam pointer;
  pointer.kind = PlanParam::Kind::Pointer;
  pointer.buffer = 2;
  pointer.offset = 64;
  PlanParam scalar;
  scalar.kind = PlanParam::Kind::I32;
  scalar.value = -5;
  PlanParam bytes;
  bytes.kind = PlanParam::Kind::Bytes;
  bytes.bytes = {1, 0, 2};
  launch.params = {pointer, scalar, bytes};
  launch.resources = {"mm_kernel", 64, 0, 0, 0, 0};
  launch.resources.ptx = {{"bar_sync", 2}, {"ld_global_128", 10}};
  launch.facts = candidate.facts;
  PlanStep first;
  first.launch = launch;
  PlanStep copy;
  copy.copy = PlanCopy{0, 8, 1, 16, 128};
  PlanStep second;
  launch.facts.reset();
  launch.kernel = "epilogue";
  second.launch = launch;
  plan->steps = {first, copy, second};
  PlanOutput output;
  output.buffer = 1;
  output.dtype = "f16";
  output.shape = {32, 64};
  plan->outputs = {output};
  candidate.plan = plan;

  auto reference = std::make_shared<ReferenceData>();
  reference->inputs.push_back({"f32", {2, 2}, std::vector<uint8_t>(16, 0xAB)});
  reference->outputs.push_back({"i8", {3}, {0, 1, 255}});
  candidate.reference = reference;
  return candidate;
}

TEST(CandidateCodecTest, CompiledCandidatesRoundTrip) {
  MLIRContext context;
  MeasureCandidate candidate = makeCompiledCandidate();
  std::string text = encodeCandidate(candidate, &context);
  EXPECT_EQ(text.find('\n'), std::string::npos);
  llvm::Expected<MeasureCandidate> decoded = decodeCandidate(text, &context);
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  // Every field is written, so equal text means equal fields.
  EXPECT_EQ(encodeCandidate(*decoded, &context), text);
  EXPECT_EQ(decoded->key, candidate.key);
  EXPECT_EQ(decoded->facts.flops, candidate.facts.flops);
  EXPECT_EQ(decoded->facts.loadLaneUse, 0.75);
  ASSERT_TRUE(decoded->plan);
  EXPECT_EQ(decoded->plan->binaries.at("mm_module"),
            candidate.plan->binaries.at("mm_module"));
  ASSERT_EQ(decoded->plan->steps.size(), 3u);
  EXPECT_TRUE(decoded->plan->steps[0].launch->facts.has_value());
  EXPECT_FALSE(decoded->plan->steps[2].launch->facts.has_value());
  EXPECT_EQ(decoded->plan->steps[1].copy->dstOffset, 16);
  EXPECT_EQ(decoded->plan->steps[0].launch->params[1].value, -5);
  // The static kernel report travels with the plan (the tuner's compile
  // workers send plans this way).
  EXPECT_EQ(decoded->plan->steps[0].launch->resources.ptx,
            (PtxCounts{{"bar_sync", 2}, {"ld_global_128", 10}}));
  EXPECT_EQ(decoded->plan->buffers[2].data, candidate.plan->buffers[2].data);
  ASSERT_TRUE(decoded->reference);
  EXPECT_EQ(decoded->reference->outputs[0].data,
            (std::vector<uint8_t>{0, 1, 255}));
}

/// Candidates of one task share their reference: in a queue batch only the
/// first carries it, the others name its position (docs/Queue.md).
TEST(CandidateCodecTest, ReferencesCanPointToAnotherCandidate) {
  MLIRContext context;
  MeasureCandidate candidate = makeCompiledCandidate();
  std::string carrier = encodeCandidate(candidate, &context);
  std::string pointer =
      encodeCandidate(candidate, &context, CandidateEncoding{3});
  EXPECT_NE(pointer.find("\"reference_at\":3"), std::string::npos);
  EXPECT_EQ(pointer.find("\"reference\":"), std::string::npos);
  EXPECT_LT(pointer.size(), carrier.size());

  llvm::Expected<std::shared_ptr<const ReferenceData>> shared =
      decodeCandidateReference(carrier);
  ASSERT_TRUE(bool(shared)) << llvm::toString(shared.takeError());
  ASSERT_TRUE(*shared);
  std::vector<int64_t> asked;
  auto resolve = [&](int64_t position)
      -> llvm::Expected<std::shared_ptr<const ReferenceData>> {
    asked.push_back(position);
    return *shared;
  };
  llvm::Expected<MeasureCandidate> decoded =
      decodeCandidate(pointer, &context, resolve);
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(asked, std::vector<int64_t>{3});
  EXPECT_EQ(decoded->reference, *shared);
  // With its reference back, it encodes as the carrier does.
  EXPECT_EQ(encodeCandidate(*decoded, &context), carrier);

  // A pointer has no reference of its own to lend.
  llvm::Expected<std::shared_ptr<const ReferenceData>> none =
      decodeCandidateReference(pointer);
  ASSERT_TRUE(bool(none)) << llvm::toString(none.takeError());
  EXPECT_FALSE(*none);
  auto message = [&](std::optional<ReferenceResolver> resolver) {
    llvm::Expected<MeasureCandidate> decoded = decodeCandidate(
        pointer, &context, resolver ? *resolver : ReferenceResolver());
    return decoded ? std::string() : llvm::toString(decoded.takeError());
  };
  EXPECT_EQ(message(std::nullopt),
            "candidate: 'reference_at' points to the reference of another "
            "candidate, and there is nothing to look it up in");
  auto gone =
      [](int64_t) -> llvm::Expected<std::shared_ptr<const ReferenceData>> {
    return llvm::createStringError("that item is gone");
  };
  EXPECT_EQ(message(ReferenceResolver(gone)),
            "candidate: the reference at position 3: that item is gone");
  auto empty =
      [](int64_t) -> llvm::Expected<std::shared_ptr<const ReferenceData>> {
    return nullptr;
  };
  EXPECT_EQ(message(ReferenceResolver(empty)),
            "candidate: the candidate at position 3 holds no reference data");
}

TEST(CandidateCodecTest, AnalyticCandidatesHaveNoPlan) {
  MLIRContext context;
  MeasureCandidate candidate;
  candidate.key = "k";
  candidate.facts.opName = "conv2d";
  candidate.facts.flops = 123.25;
  llvm::Expected<MeasureCandidate> decoded =
      decodeCandidate(encodeCandidate(candidate, &context), &context);
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_FALSE(decoded->plan);
  EXPECT_FALSE(decoded->reference);
  EXPECT_EQ(decoded->facts.opName, "conv2d");
  EXPECT_EQ(decoded->facts.flops, 123.25);
}

TEST(CandidateCodecTest, MalformedCandidatesNameTheField) {
  MLIRContext context;
  auto message = [&](llvm::StringRef text) {
    llvm::Expected<MeasureCandidate> decoded = decodeCandidate(text, &context);
    return decoded ? std::string() : llvm::toString(decoded.takeError());
  };
  EXPECT_EQ(message("[1]"), "candidate: not a JSON object");
  EXPECT_EQ(message("{}"), "candidate: missing field 'key'");
  std::string text = encodeCandidate(makeCompiledCandidate(), &context);
  std::string noGrid = text;
  noGrid.replace(noGrid.find("\"grid\":[16,16,1]"), 16, "\"grid\":[16,16]  ");
  EXPECT_EQ(message(noGrid),
            "candidate.plan.steps[0]: grid and block need 3 integers each");
  std::string badBase64 = text;
  badBase64.replace(badBase64.find("\"data\":\"AP+ABw==\""), 17,
                    "\"data\":\"A!!!\"   ");
  EXPECT_NE(message(badBase64).find("candidate.plan.buffers[2]: 'data': "),
            std::string::npos)
      << message(badBase64);
  EXPECT_NE(message("{").find("candidate: "), std::string::npos);
}

TEST(CandidateCodecTest, ResultsRoundTrip) {
  MeasureResult ok;
  ok.key = "k";
  ok.timing = {12.5, 11.25, 15.0, 0.625, 10};
  ok.resources = {"kernel", 96, 8, 4, 24576, 0};
  ok.simulated = true;
  ok.device = "sim:h100-sxm";
  ok.message = "note";
  llvm::Expected<MeasureResult> decoded = decodeResult(encodeResult(ok));
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(encodeResult(*decoded), encodeResult(ok));
  EXPECT_EQ(decoded->timing.minUs, 11.25);
  EXPECT_EQ(decoded->timing.repeats, 10);

  MeasureResult failed;
  failed.status = MeasureStatus::Timeout;
  failed.message = "hung";
  decoded = decodeResult(encodeResult(failed));
  ASSERT_TRUE(bool(decoded));
  EXPECT_EQ(decoded->status, MeasureStatus::Timeout);
  EXPECT_EQ(decoded->message, "hung");
  llvm::Expected<MeasureResult> bad =
      decodeResult(R"({"key":"k","status":"melted","simulated":true,)"
                   R"("device":"x","resources":{}})");
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()), "result: unknown status 'melted'");
}

} // namespace
