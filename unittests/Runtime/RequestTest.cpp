//===- RequestTest.cpp - Tests of runner request parsing ------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/Request.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include <unistd.h>

using namespace tessel::runtime;

namespace {

/// A request with every kind of field; file paths are relative to the
/// fixture's directory.
const char *const kGoodRequest = R"({
  "version": 1,
  "options": {"warmup_ms": 10, "min_time_ms": 50, "min_repeats": 3,
              "max_repeats": 100, "flush_l2": false, "verify": true},
  "candidates": [{
    "key": "matmul/abc123",
    "modules": {"forward_kernel": "k.cubin"},
    "buffers": [{"bytes": 8, "init": "file", "file": "in.bin"},
                {"bytes": 64, "init": "poison"},
                {"bytes": 16, "init": "zero"}],
    "steps": [
      {"launch": {"module": "forward_kernel", "kernel": "forward_kernel",
                  "grid": [4096, 1, 1], "block": [256, 1, 1],
                  "shared_bytes": 65536,
                  "params": [{"ptr": 1, "offset": 4}, {"ptr": 0},
                             {"i64": -1024}, {"i32": 4294967295},
                             {"bytes": "0000803F"}]}},
      {"copy": {"src": 0, "src_offset": 0, "dst": 1, "dst_offset": 56,
                "bytes": 8}}
    ],
    "checks": [{"buffer": 1, "offset": 60, "dtype": "f32", "count": 1,
                "expected": "out.bin", "rtol": 1e-3, "atol": 0}],
    "flops": 2147483648
  }]
})";

class RequestTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir();
    if (pattern.empty() || pattern.back() != '/')
      pattern += '/';
    pattern += "tessel-request-XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir = pattern;
    writeFile("in.bin", std::string(8, 'x'));
    writeFile("out.bin", std::string(4, 'y'));
    writeFile("k.cubin", "not really a cubin");
  }

  void TearDown() override {
    for (const char *name : {"in.bin", "out.bin", "k.cubin", "r.json"})
      std::remove((dir + "/" + name).c_str());
    rmdir(dir.c_str());
  }

  void writeFile(const std::string &name, const std::string &contents) {
    FILE *file = std::fopen((dir + "/" + name).c_str(), "wb");
    ASSERT_NE(file, nullptr);
    std::fwrite(contents.data(), 1, contents.size(), file);
    std::fclose(file);
  }

  /// The error of parsing `text`, or "" when it parses.
  std::string errorOf(const std::string &text) {
    MeasureRequest request;
    std::string error;
    if (parseRequest(text, dir, request, error))
      return "";
    return error;
  }

  /// kGoodRequest with the first `from` replaced by `to`.
  static std::string edit(const std::string &from, const std::string &to) {
    std::string text = kGoodRequest;
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
      text.replace(at, from.size(), to);
    return text;
  }

  std::string dir;
};

TEST_F(RequestTest, ParsesAGoodRequest) {
  MeasureRequest request;
  std::string error;
  ASSERT_TRUE(parseRequest(kGoodRequest, dir, request, error)) << error;
  EXPECT_EQ(request.version, 1);
  EXPECT_EQ(request.options.warmupMs, 10);
  EXPECT_EQ(request.options.minTimeMs, 50);
  EXPECT_EQ(request.options.minRepeats, 3);
  EXPECT_EQ(request.options.maxRepeats, 100);
  EXPECT_FALSE(request.options.flushL2);
  EXPECT_TRUE(request.options.verify);
  ASSERT_EQ(request.candidates.size(), 1u);
  const Candidate &candidate = request.candidates[0];
  EXPECT_EQ(candidate.key, "matmul/abc123");
  ASSERT_EQ(candidate.modules.size(), 1u);
  EXPECT_EQ(candidate.modules[0].first, "forward_kernel");
  EXPECT_EQ(candidate.modules[0].second, dir + "/k.cubin");
  ASSERT_EQ(candidate.buffers.size(), 3u);
  EXPECT_EQ(candidate.buffers[0].init, BufferInit::File);
  EXPECT_EQ(candidate.buffers[0].file, dir + "/in.bin");
  EXPECT_EQ(candidate.buffers[1].init, BufferInit::Poison);
  EXPECT_EQ(candidate.buffers[2].init, BufferInit::Zero);
  ASSERT_EQ(candidate.steps.size(), 2u);
  const LaunchStep &launch = candidate.steps[0].launch;
  EXPECT_EQ(candidate.steps[0].kind, Step::Kind::Launch);
  EXPECT_EQ(launch.kernel, "forward_kernel");
  EXPECT_EQ(launch.grid[0], 4096u);
  EXPECT_EQ(launch.block[0], 256u);
  EXPECT_EQ(launch.sharedBytes, 65536u);
  ASSERT_EQ(launch.params.size(), 5u);
  EXPECT_EQ(launch.params[0].kind, LaunchParam::Kind::Pointer);
  EXPECT_EQ(launch.params[0].buffer, 1);
  EXPECT_EQ(launch.params[0].offset, 4);
  EXPECT_EQ(launch.params[1].offset, 0);
  EXPECT_EQ(launch.params[2].kind, LaunchParam::Kind::I64);
  EXPECT_EQ(launch.params[2].value, -1024);
  EXPECT_EQ(launch.params[3].kind, LaunchParam::Kind::I32);
  EXPECT_EQ(launch.params[3].value, 4294967295);
  EXPECT_EQ(launch.params[3].getSize(), 4u);
  EXPECT_EQ(launch.params[4].kind, LaunchParam::Kind::Bytes);
  EXPECT_EQ(launch.params[4].bytes, (std::vector<uint8_t>{0, 0, 0x80, 0x3F}));
  EXPECT_EQ(candidate.steps[1].kind, Step::Kind::Copy);
  EXPECT_EQ(candidate.steps[1].copy.dstOffset, 56);
  ASSERT_EQ(candidate.checks.size(), 1u);
  EXPECT_EQ(candidate.checks[0].dtype, DType::F32);
  EXPECT_EQ(candidate.checks[0].rtol, 1e-3);
  EXPECT_EQ(candidate.checks[0].atol, 0);
  EXPECT_EQ(candidate.checks[0].expected, dir + "/out.bin");
  EXPECT_EQ(candidate.flops, 2147483648.0);
}

TEST_F(RequestTest, DefaultsForOptionalFields) {
  MeasureRequest request;
  std::string error;
  ASSERT_TRUE(parseRequest(R"({"version": 1, "candidates": [{"key": "k",
      "modules": {}, "steps": [{"copy": {"src": 0, "dst": 0, "bytes": 4}}],
      "buffers": [{"bytes": 8, "init": "zero"}],
      "checks": [{"buffer": 0, "dtype": "bf16", "count": 2,
                  "expected": "out.bin"}]}]})",
                           dir, request, error))
      << error;
  EXPECT_EQ(request.options.warmupMs, 25);
  EXPECT_EQ(request.options.minTimeMs, 100);
  EXPECT_EQ(request.options.minRepeats, 5);
  EXPECT_EQ(request.options.maxRepeats, 10000);
  EXPECT_TRUE(request.options.flushL2);
  const CheckSpec &check = request.candidates[0].checks[0];
  EXPECT_EQ(check.offset, 0);
  EXPECT_EQ(check.rtol, 2e-2);
  EXPECT_EQ(check.atol, 1e-2);
  EXPECT_EQ(request.candidates[0].flops, 0);
}

TEST_F(RequestTest, EmptyCandidateListIsAProbe) {
  MeasureRequest request;
  std::string error;
  ASSERT_TRUE(
      parseRequest(R"({"version": 1, "candidates": []})", dir, request, error))
      << error;
  EXPECT_TRUE(request.candidates.empty());
}

TEST_F(RequestTest, LoadRequestResolvesPathsAgainstItsDirectory) {
  writeFile("r.json", kGoodRequest);
  MeasureRequest request;
  std::string error;
  ASSERT_TRUE(loadRequest(dir + "/r.json", request, error)) << error;
  EXPECT_EQ(request.candidates[0].buffers[0].file, dir + "/in.bin");
  EXPECT_FALSE(loadRequest(dir + "/missing.json", request, error));
  EXPECT_EQ(error, "cannot read '" + dir +
                       "/missing.json': No such file or directory");
  writeFile("r.json", "{\"version\": 2, \"candidates\": []}");
  EXPECT_FALSE(loadRequest(dir + "/r.json", request, error));
  EXPECT_EQ(error, dir + "/r.json: version: unsupported request version 2 "
                         "(this runtime reads version 1)");
}

TEST_F(RequestTest, SyntaxErrors) {
  EXPECT_EQ(errorOf("{\"version\": 1,,}"),
            "line 1, column 15: expected a string key in object");
  EXPECT_EQ(errorOf("[]"), "request: expected an object, got an array");
}

TEST_F(RequestTest, MissingFields) {
  EXPECT_EQ(errorOf("{\"candidates\": []}"),
            "request: missing field 'version'");
  EXPECT_EQ(errorOf("{\"version\": 1}"), "request: missing field 'candidates'");
  EXPECT_EQ(errorOf(edit("\"key\": \"matmul/abc123\",", "")),
            "candidates[0]: missing field 'key'");
  EXPECT_EQ(errorOf(edit("{\"bytes\": 64, \"init\": \"poison\"}",
                         "{\"init\": \"poison\"}")),
            "candidates[0].buffers[1]: missing field 'bytes'");
  EXPECT_EQ(errorOf(edit("\"kernel\": \"forward_kernel\",", "")),
            "candidates[0].steps[0].launch: missing field 'kernel'");
  EXPECT_EQ(errorOf(edit("\"expected\": \"out.bin\",", "")),
            "candidates[0].checks[0]: missing field 'expected'");
  EXPECT_EQ(errorOf(edit("\"init\": \"file\", \"file\": \"in.bin\"",
                         "\"init\": \"file\"")),
            "candidates[0].buffers[0]: missing field 'file'");
}

TEST_F(RequestTest, WrongTypesAndRanges) {
  EXPECT_EQ(errorOf(edit("\"bytes\": 64", "\"bytes\": \"64\"")),
            "candidates[0].buffers[1].bytes: expected an integer, got a "
            "string (\"64\")");
  EXPECT_EQ(errorOf(edit("\"bytes\": 64", "\"bytes\": 64.5")),
            "candidates[0].buffers[1].bytes: expected an integer, got a "
            "number (64.5)");
  EXPECT_EQ(errorOf(edit("\"grid\": [4096, 1, 1]", "\"grid\": [4096, 0, 1]")),
            "candidates[0].steps[0].launch.grid[1]: expected an integer in "
            "[1, 4294967295], got 0");
  EXPECT_EQ(errorOf(edit("\"block\": [256, 1, 1]", "\"block\": [256, 1]")),
            "candidates[0].steps[0].launch.block: expected an array of 3 "
            "positive integers");
  EXPECT_EQ(errorOf(edit("\"flush_l2\": false", "\"flush_l2\": 0")),
            "options.flush_l2: expected a boolean, got a number (0)");
  EXPECT_EQ(errorOf(edit("\"max_repeats\": 100", "\"max_repeats\": 2")),
            "options.max_repeats: 2 is less than min_repeats 3");
  EXPECT_EQ(errorOf(edit("\"warmup_ms\": 10", "\"warmup_ms\": -1")),
            "options.warmup_ms: expected a number >= 0, got -1");
  EXPECT_EQ(errorOf(edit("\"init\": \"poison\"", "\"init\": \"random\"")),
            "candidates[0].buffers[1].init: expected \"file\", \"poison\" or "
            "\"zero\", got \"random\"");
  EXPECT_EQ(errorOf(edit("\"init\": \"poison\"",
                         "\"init\": \"poison\", \"file\": \"in.bin\"")),
            "candidates[0].buffers[1]: field 'file' needs init \"file\"");
  EXPECT_EQ(errorOf(edit("\"flops\": 2147483648", "\"flops\": -1")),
            "candidates[0].flops: expected a number >= 0, got -1");
}

TEST_F(RequestTest, UnknownFieldsAndVersion) {
  EXPECT_EQ(errorOf(edit("\"shared_bytes\"", "\"shared_byte\"")),
            "candidates[0].steps[0].launch: unknown field 'shared_byte'");
  EXPECT_EQ(errorOf(edit("\"version\": 1", "\"version\": 1, \"extra\": 0")),
            "request: unknown field 'extra'");
  EXPECT_EQ(errorOf(edit("\"version\": 1", "\"version\": 3")),
            "version: unsupported request version 3 (this runtime reads "
            "version 1)");
}

TEST_F(RequestTest, BadDType) {
  EXPECT_EQ(errorOf(edit("\"dtype\": \"f32\"", "\"dtype\": \"float32\"")),
            "candidates[0].checks[0].dtype: unknown dtype \"float32\"; "
            "expected f32, f64, f16, bf16, i8, i32 or i64");
}

TEST_F(RequestTest, ParamKinds) {
  EXPECT_EQ(errorOf(edit("{\"i64\": -1024}", "{\"i64\": 1, \"i32\": 2}")),
            "candidates[0].steps[0].launch.params[2]: a param needs exactly "
            "one of 'ptr', 'i64', 'i32', 'bytes'");
  EXPECT_EQ(errorOf(edit("{\"i64\": -1024}", "{}")),
            "candidates[0].steps[0].launch.params[2]: a param needs exactly "
            "one of 'ptr', 'i64', 'i32', 'bytes'");
  EXPECT_EQ(errorOf(edit("{\"i64\": -1024}", "{\"f32\": 1.0}")),
            "candidates[0].steps[0].launch.params[2]: unknown field 'f32'");
  EXPECT_EQ(errorOf(edit("{\"i64\": -1024}", "{\"i64\": 1, \"offset\": 4}")),
            "candidates[0].steps[0].launch.params[2]: field 'offset' needs "
            "'ptr'");
  EXPECT_EQ(errorOf(edit("{\"i32\": 4294967295}", "{\"i32\": 4294967296}")),
            "candidates[0].steps[0].launch.params[3].i32: expected an integer "
            "in [-2147483648, 4294967295], got 4294967296");
  EXPECT_EQ(errorOf(edit("{\"i64\": -1024}", "{\"i64\": 1.5}")),
            "candidates[0].steps[0].launch.params[2].i64: expected an "
            "integer, got a number (1.5)");
  EXPECT_EQ(errorOf(edit("\"0000803F\"", "\"0000803\"")),
            "candidates[0].steps[0].launch.params[4].bytes: expected a "
            "non-empty even number of hex digits, got \"0000803\"");
  EXPECT_EQ(errorOf(edit("\"0000803F\"", "\"00zz\"")),
            "candidates[0].steps[0].launch.params[4].bytes: expected a "
            "non-empty even number of hex digits, got \"00zz\"");
  EXPECT_EQ(errorOf(edit("{\"ptr\": 0}", "{\"ptr\": 3}")),
            "candidates[0].steps[0].launch.params[1].ptr: buffer 3 does not "
            "exist (the candidate has 3 buffers)");
  EXPECT_EQ(errorOf(edit("{\"ptr\": 0}", "{\"ptr\": 0, \"offset\": 9}")),
            "candidates[0].steps[0].launch.params[1].offset: 9 is past the "
            "end of buffer 0 (8 bytes)");
}

TEST_F(RequestTest, StepsAndRanges) {
  EXPECT_EQ(
      errorOf(edit("\"module\": \"forward_kernel\"", "\"module\": \"other\"")),
      "candidates[0].steps[0].launch.module: no module \"other\" in "
      "the candidate's modules");
  EXPECT_EQ(errorOf(edit("{\"copy\": {", "{\"launch\": {}, \"copy\": {")),
            "candidates[0].steps[1]: a step needs exactly one of 'launch', "
            "'copy'");
  EXPECT_EQ(errorOf(edit("\"dst_offset\": 56", "\"dst_offset\": 57")),
            "candidates[0].steps[1].copy: destination bytes [57, 65) lie "
            "outside buffer 1 (64 bytes)");
  EXPECT_EQ(errorOf(edit("\"offset\": 60", "\"offset\": 62")),
            "candidates[0].checks[0]: 1 f32 elements at [62, 66) lie outside "
            "buffer 1 (64 bytes)");
  EXPECT_EQ(errorOf(edit("\"steps\": [", "\"steps\": [], \"x\": [")),
            "candidates[0]: unknown field 'x'");
}

TEST_F(RequestTest, FileSizeMismatch) {
  EXPECT_EQ(errorOf(edit("{\"bytes\": 8, \"init\": \"file\"",
                         "{\"bytes\": 16, \"init\": \"file\"")),
            "candidates[0].buffers[0].file: '" + dir +
                "/in.bin' has 8 bytes, but the buffer has 16");
  EXPECT_EQ(errorOf(edit("\"offset\": 60, \"dtype\": \"f32\", \"count\": 1",
                         "\"offset\": 56, \"dtype\": \"f32\", \"count\": 2")),
            "candidates[0].checks[0].expected: '" + dir +
                "/out.bin' has 4 bytes, but 2 f32 elements are 8");
  EXPECT_EQ(errorOf(edit("\"file\": \"in.bin\"", "\"file\": \"none.bin\"")),
            "candidates[0].buffers[0].file: cannot read '" + dir +
                "/none.bin': No such file or directory");
  EXPECT_EQ(errorOf(edit("\"k.cubin\"", "\"/nonexistent/k.cubin\"")),
            "candidates[0].modules.forward_kernel: cannot read "
            "'/nonexistent/k.cubin': No such file or directory");
}

TEST_F(RequestTest, FilesAreNotCheckedWhenAskedNotTo) {
  MeasureRequest request;
  std::string error;
  EXPECT_TRUE(parseRequest(edit("\"k.cubin\"", "\"/nonexistent/k.cubin\""), dir,
                           request, error, /*checkFiles=*/false))
      << error;
}

/// Expects every field of `got` to equal `want`'s.
void expectSameRequest(const MeasureRequest &got, const MeasureRequest &want) {
  EXPECT_EQ(got.version, want.version);
  EXPECT_EQ(got.options.warmupMs, want.options.warmupMs);
  EXPECT_EQ(got.options.minTimeMs, want.options.minTimeMs);
  EXPECT_EQ(got.options.minRepeats, want.options.minRepeats);
  EXPECT_EQ(got.options.maxRepeats, want.options.maxRepeats);
  EXPECT_EQ(got.options.flushL2, want.options.flushL2);
  EXPECT_EQ(got.options.verify, want.options.verify);
  ASSERT_EQ(got.candidates.size(), want.candidates.size());
  for (size_t c = 0; c < got.candidates.size(); ++c) {
    const Candidate &a = got.candidates[c], &b = want.candidates[c];
    EXPECT_EQ(a.key, b.key);
    EXPECT_EQ(a.modules, b.modules);
    EXPECT_EQ(a.flops, b.flops);
    ASSERT_EQ(a.buffers.size(), b.buffers.size());
    for (size_t i = 0; i < a.buffers.size(); ++i) {
      EXPECT_EQ(a.buffers[i].bytes, b.buffers[i].bytes) << i;
      EXPECT_EQ(a.buffers[i].init, b.buffers[i].init) << i;
      EXPECT_EQ(a.buffers[i].file, b.buffers[i].file) << i;
    }
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (size_t i = 0; i < a.steps.size(); ++i) {
      const Step &x = a.steps[i], &y = b.steps[i];
      ASSERT_EQ(x.kind, y.kind) << i;
      if (x.kind == Step::Kind::Copy) {
        EXPECT_EQ(x.copy.src, y.copy.src);
        EXPECT_EQ(x.copy.srcOffset, y.copy.srcOffset);
        EXPECT_EQ(x.copy.dst, y.copy.dst);
        EXPECT_EQ(x.copy.dstOffset, y.copy.dstOffset);
        EXPECT_EQ(x.copy.bytes, y.copy.bytes);
        continue;
      }
      EXPECT_EQ(x.launch.module, y.launch.module);
      EXPECT_EQ(x.launch.kernel, y.launch.kernel);
      EXPECT_EQ(x.launch.grid, y.launch.grid);
      EXPECT_EQ(x.launch.block, y.launch.block);
      EXPECT_EQ(x.launch.sharedBytes, y.launch.sharedBytes);
      ASSERT_EQ(x.launch.params.size(), y.launch.params.size());
      for (size_t p = 0; p < x.launch.params.size(); ++p) {
        const LaunchParam &u = x.launch.params[p], &v = y.launch.params[p];
        EXPECT_EQ(u.kind, v.kind) << p;
        EXPECT_EQ(u.buffer, v.buffer) << p;
        EXPECT_EQ(u.offset, v.offset) << p;
        EXPECT_EQ(u.value, v.value) << p;
        EXPECT_EQ(u.bytes, v.bytes) << p;
      }
    }
    ASSERT_EQ(a.checks.size(), b.checks.size());
    for (size_t i = 0; i < a.checks.size(); ++i) {
      EXPECT_EQ(a.checks[i].buffer, b.checks[i].buffer);
      EXPECT_EQ(a.checks[i].offset, b.checks[i].offset);
      EXPECT_EQ(a.checks[i].dtype, b.checks[i].dtype);
      EXPECT_EQ(a.checks[i].count, b.checks[i].count);
      EXPECT_EQ(a.checks[i].expected, b.checks[i].expected);
      EXPECT_EQ(a.checks[i].rtol, b.checks[i].rtol);
      EXPECT_EQ(a.checks[i].atol, b.checks[i].atol);
    }
  }
}

TEST_F(RequestTest, WriteThenParseGivesTheRequestBack) {
  MeasureRequest request;
  std::string error;
  ASSERT_TRUE(parseRequest(kGoodRequest, dir, request, error)) << error;
  std::string text = writeRequest(request);
  MeasureRequest again;
  ASSERT_TRUE(parseRequest(text, "", again, error)) << error << "\n" << text;
  expectSameRequest(again, request);
  EXPECT_EQ(writeRequest(again), text);
}

TEST_F(RequestTest, WriterKeepsAwkwardValues) {
  MeasureRequest request;
  request.options.warmupMs = 0.1;
  request.options.minTimeMs = 1e-7;
  request.options.maxRepeats = 7;
  request.options.minRepeats = 7;
  request.options.verify = false;
  Candidate &candidate = request.candidates.emplace_back();
  candidate.key = "quote \" backslash \\ tab \t unicode \xc3\xa9";
  candidate.modules = {{"z_module", "/abs/z.cubin"}, {"a_module", "a.ptx"}};
  candidate.flops = 1.0 / 3.0;
  candidate.buffers.resize(2);
  candidate.buffers[0].bytes = int64_t(1) << 40;
  candidate.buffers[0].init = BufferInit::Zero;
  candidate.buffers[1].bytes = 16;
  candidate.buffers[1].init = BufferInit::File;
  candidate.buffers[1].file = "data dir/in.bin";
  Step launch;
  launch.launch.module = "a_module";
  launch.launch.kernel = "k";
  launch.launch.grid = {4294967295u, 2, 3};
  launch.launch.block = {32, 4, 1};
  launch.launch.sharedBytes = 4294967295u;
  LaunchParam pointer, i64, i32, bytes;
  pointer.kind = LaunchParam::Kind::Pointer;
  pointer.buffer = 1;
  pointer.offset = 12;
  i64.kind = LaunchParam::Kind::I64;
  i64.value = std::numeric_limits<int64_t>::min();
  i32.kind = LaunchParam::Kind::I32;
  i32.value = -2147483648LL;
  bytes.kind = LaunchParam::Kind::Bytes;
  bytes.bytes = {0x00, 0xff, 0x10, 0xab, 0x7f};
  launch.launch.params = {pointer, i64, i32, bytes};
  Step copy;
  copy.kind = Step::Kind::Copy;
  copy.copy = {1, 0, 1, 8, 8};
  candidate.steps = {launch, copy};
  for (DType type : {DType::F32, DType::F64, DType::F16, DType::BF16,
                     DType::I8, DType::I32, DType::I64}) {
    CheckSpec &check = candidate.checks.emplace_back();
    check.buffer = 1;
    check.dtype = type;
    check.count = 1;
    check.expected = "expected.bin";
    check.rtol = 1e-3 / 7;
    check.atol = 0;
  }
  std::string text = writeRequest(request);
  MeasureRequest again;
  std::string error;
  ASSERT_TRUE(parseRequest(text, "", again, error, /*checkFiles=*/false))
      << error << "\n" << text;
  expectSameRequest(again, request);
}

TEST_F(RequestTest, SaveThenLoad) {
  MeasureRequest request;
  std::string error;
  ASSERT_TRUE(parseRequest(kGoodRequest, dir, request, error)) << error;
  std::string path = dir + "/r.json";
  ASSERT_TRUE(saveRequest(request, path, error)) << error;
  MeasureRequest loaded;
  ASSERT_TRUE(loadRequest(path, loaded, error)) << error;
  expectSameRequest(loaded, request);
  EXPECT_FALSE(saveRequest(request, dir + "/no/such/dir/r.json", error));
  EXPECT_EQ(error, "cannot write '" + dir +
                       "/no/such/dir/r.json': No such file or directory");
}

} // namespace
