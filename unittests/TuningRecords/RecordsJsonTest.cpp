//===- RecordsJsonTest.cpp - JSON lines export and import -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "RecordsTestUtils.h"

#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::records_test;

namespace {

/// Two runs over two tasks, with successes and failures on a simulated and a
/// real target, and awkward text.
void populate(RecordsDatabase &db) {
  int64_t first = get(db.beginRun(makeRun(1700000000.125)));
  RunInfo gpuRun = makeRun(1700003600.5);
  gpuRun.measurer = "cuda:0";
  gpuRun.simulated = false;
  gpuRun.seed = 0xFFFFFFFFFFFFFFFFull;
  gpuRun.optionsJson = R"({"b": 1, "a": [1, 2]})";
  gpuRun.modelSource = "func.func @mm() {\n  \"x\"\t\xE2\x9C\x93\n}\n";
  int64_t second = get(db.beginRun(gpuRun));
  int64_t mm = get(db.getOrAddTask("mm", "matmul", 2.0 * 1024 * 1024 * 1024, 2,
                                   "matmul \"1024\"\t\xE2\x9C\x93"));
  int64_t conv = get(db.getOrAddTask("conv", "conv2d", 1.5e9, 1, ""));
  int64_t mmSketch = get(db.getOrAddSketch(mm, "#tessel.sketch<a>"));
  int64_t convSketch = get(db.getOrAddSketch(conv, "#tessel.sketch<b>"));
  for (int i = 0; i < 6; ++i) {
    int64_t config = get(db.getOrAddConfig(i % 2 ? convSketch : mmSketch,
                                           "#tessel.config<tile = [" +
                                               std::to_string(32 << i) + "]>"));
    MeasureStatus status =
        i == 3 ? MeasureStatus::LaunchError : MeasureStatus::Ok;
    MeasureResult sim = makeResult(status, 10.0 / 3 + i);
    sim.message += "\nline two";
    ASSERT_GT(get(db.addMeasurement(first, config, sim, i, i * 0.25 + 1e-9)),
              0);
    MeasureResult gpu =
        makeResult(status, 7.0 / 3 + i, "cuda:NVIDIA H100 80GB HBM3");
    ASSERT_GT(get(db.addMeasurement(second, config, gpu, i, i * 1.5)), 0);
  }
}

std::string exportAll(RecordsDatabase &db) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (llvm::Error err = db.exportJsonLines(os))
    ADD_FAILURE() << llvm::toString(std::move(err));
  return text;
}

TEST(RecordsJsonTest, ExportsOneSelfContainedObjectPerMeasurement) {
  TempDir dir;
  auto db = openOrFail(dir.path("records.db"));
  ASSERT_TRUE(db);
  populate(*db);
  std::string text = exportAll(*db);
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(text).split(lines, '\n', -1, /*KeepEmpty=*/false);
  ASSERT_EQ(lines.size(), 12u);

  llvm::Expected<llvm::json::Value> first = llvm::json::parse(lines[0]);
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  const llvm::json::Object &object = *first->getAsObject();
  EXPECT_EQ(object.getString("target"), "sim:h100-sxm");
  EXPECT_EQ(object.getBoolean("simulated"), true);
  EXPECT_EQ(object.getString("status"), "ok");
  EXPECT_EQ(object.getNumber("median_us"), 10.0 / 3);
  EXPECT_EQ(object.getInteger("repeats"), 10);
  EXPECT_EQ(object.getInteger("spill_bytes"), 12);
  EXPECT_EQ(object.getString("sketch"), "#tessel.sketch<a>");
  EXPECT_EQ(object.getString("config"), "#tessel.config<tile = [32]>");
  EXPECT_EQ(object.getObject("task")->getString("workload_key"), "mm");
  EXPECT_EQ(object.getObject("run")->getNumber("started_at"), 1700000000.125);
  EXPECT_EQ(object.getObject("run")->getBoolean("simulated"), true);
  EXPECT_EQ(object.getObject("run")->getString("model_source"), "");

  llvm::Expected<llvm::json::Value> gpu = llvm::json::parse(lines[1]);
  ASSERT_TRUE(bool(gpu)) << llvm::toString(gpu.takeError());
  EXPECT_EQ(gpu->getAsObject()->getBoolean("simulated"), false);
  EXPECT_EQ(gpu->getAsObject()->getObject("run")->getString("measurer"),
            "cuda:0");
  EXPECT_EQ(gpu->getAsObject()->getObject("run")->getString("model_source"),
            "func.func @mm() {\n  \"x\"\t\xE2\x9C\x93\n}\n");

  // Failed measurements have no timings.
  llvm::Expected<llvm::json::Value> failed = llvm::json::parse(lines[6]);
  ASSERT_TRUE(bool(failed)) << llvm::toString(failed.takeError());
  EXPECT_EQ(failed->getAsObject()->getString("status"), "launch_error");
  // (Not Object::getNull(): its result type breaks between GCC and Clang.)
  const llvm::json::Value *median = failed->getAsObject()->get("median_us");
  ASSERT_TRUE(median);
  EXPECT_EQ(median->kind(), llvm::json::Value::Null);
}

/// Export and import between an SQLite file and each engine.
using RecordsJsonEngineTest = EngineTest;
TESSEL_INSTANTIATE_ENGINE_TEST(RecordsJsonEngineTest);

TEST_P(RecordsJsonEngineTest, ExportImportRoundTrip) {
  auto source = openOrFail(dir.path("source.db"));
  ASSERT_TRUE(source);
  populate(*source);
  std::string exported = exportAll(*source);

  auto copy = openOrFail(location());
  ASSERT_TRUE(copy);
  ImportSummary summary = get(copy->importJsonLines(exported, "records.jsonl"));
  EXPECT_EQ(summary.lines, 12);
  EXPECT_EQ(summary.added, 12);
  EXPECT_EQ(summary.duplicates, 0);
  EXPECT_EQ(exportAll(*copy), exported);

  // And back from the copy into another file.
  auto back = openOrFail(dir.path("back.db"));
  ASSERT_TRUE(back);
  EXPECT_EQ(get(back->importJsonLines(exportAll(*copy))).added, 12);
  EXPECT_EQ(exportAll(*back), exported);

  // Runs and tasks come back whole.
  std::vector<RunInfo> runs = get(copy->getRuns());
  std::vector<RunInfo> sourceRuns = get(source->getRuns());
  ASSERT_EQ(runs.size(), 2u);
  for (size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].startedAt, sourceRuns[i].startedAt);
    EXPECT_EQ(runs[i].seed, sourceRuns[i].seed);
    EXPECT_EQ(runs[i].simulated, sourceRuns[i].simulated);
    EXPECT_EQ(runs[i].optionsJson, sourceRuns[i].optionsJson);
    EXPECT_EQ(runs[i].modelSource, sourceRuns[i].modelSource);
  }
  EXPECT_EQ(runs[1].modelSource,
            "func.func @mm() {\n  \"x\"\t\xE2\x9C\x93\n}\n");
  std::vector<TaskInfo> tasks = get(copy->getTasks());
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0].description, "matmul \"1024\"\t\xE2\x9C\x93");
  EXPECT_EQ(tasks[0].flops, 2.0 * 1024 * 1024 * 1024);

  // The same best records.
  for (const char *target : {"sim:h100-sxm", "cuda:NVIDIA H100 80GB HBM3"}) {
    std::optional<BestRecord> a = get(source->getBestRecord("mm", target));
    std::optional<BestRecord> b = get(copy->getBestRecord("mm", target));
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->config, b->config);
    EXPECT_EQ(a->medianUs, b->medianUs);
    EXPECT_EQ(a->simulated, b->simulated);
  }
  expectIntact(*copy);
}

TEST_P(RecordsJsonEngineTest, ImportingTwiceAddsNothing) {
  auto source = openOrFail(location());
  ASSERT_TRUE(source);
  populate(*source);
  std::string exported = exportAll(*source);

  // Back into the database it came from.
  ImportSummary summary = get(source->importJsonLines(exported));
  EXPECT_EQ(summary.added, 0);
  EXPECT_EQ(summary.duplicates, 12);
  EXPECT_EQ(exportAll(*source), exported);

  // Twice into a fresh one, from a file.
  std::string file = dir.path("records.jsonl");
  writeBytes(file, exported);
  auto copy = openOrFail(dir.path("copy.db"));
  ASSERT_TRUE(copy);
  EXPECT_EQ(get(copy->importJsonLinesFile(file)).added, 12);
  summary = get(copy->importJsonLinesFile(file));
  EXPECT_EQ(summary.added, 0);
  EXPECT_EQ(summary.duplicates, 12);
  EXPECT_EQ(exportAll(*copy), exported);
  EXPECT_EQ(queryRawInt(dir.path("copy.db"), "SELECT count(*) FROM runs"), 2);
  EXPECT_EQ(queryRawInt(dir.path("copy.db"), "SELECT count(*) FROM configs"),
            6);
}

TEST(RecordsJsonTest, ImportsExportsWithoutModelSource) {
  TempDir dir;
  auto source = openOrFail(dir.path("source.db"));
  ASSERT_TRUE(source);
  populate(*source);
  std::string exported = exportAll(*source);

  // Exports written before schema version 2 have no run.model_source.
  std::string old;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(exported).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(line);
    ASSERT_TRUE(bool(value)) << llvm::toString(value.takeError());
    ASSERT_TRUE(value->getAsObject()->getObject("run")->erase("model_source"));
    llvm::raw_string_ostream(old) << *value << '\n';
  }
  ASSERT_EQ(old.find("model_source"), std::string::npos);

  auto copy = openOrFail(dir.path("copy.db"));
  ASSERT_TRUE(copy);
  ImportSummary summary = get(copy->importJsonLines(old, "old.jsonl"));
  EXPECT_EQ(summary.added, 12);
  std::vector<RunInfo> runs = get(copy->getRuns());
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].modelSource, "");
  EXPECT_EQ(runs[1].modelSource, "");
  EXPECT_EQ(runs[1].measurer, "cuda:0");
  // Importing the old lines again matches the runs they made.
  EXPECT_EQ(get(copy->importJsonLines(old, "old.jsonl")).duplicates, 12);
  // The new lines carry a model for the second run: that is another run.
  summary = get(copy->importJsonLines(exported, "new.jsonl"));
  EXPECT_EQ(summary.added, 6);
  EXPECT_EQ(summary.duplicates, 6);
  EXPECT_EQ(get(copy->getRuns()).size(), 3u);

  std::string wrongType = lines[0].str();
  size_t at = wrongType.find("\"model_source\":\"\"");
  ASSERT_NE(at, std::string::npos);
  wrongType.replace(at, 17, "\"model_source\":7");
  EXPECT_EQ(errorMessage(copy->importJsonLines(wrongType, "in.jsonl")),
            "in.jsonl:1: run.'model_source' must be a string");
}

TEST(RecordsJsonTest, MalformedLinesNameTheirLine) {
  TempDir dir;
  auto source = openOrFail(dir.path("source.db"));
  ASSERT_TRUE(source);
  populate(*source);
  std::string exported = exportAll(*source);
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(exported).split(lines, '\n', -1, /*KeepEmpty=*/false);

  auto copy = openOrFail(dir.path("copy.db"));
  ASSERT_TRUE(copy);
  // A blank line 2, then a broken line 4.
  std::string broken = lines[0].str() + "\n\n" + lines[1].str() + "\n" +
                       lines[2].drop_back(5).str() + "\n" + lines[3].str();
  std::string message = errorMessage(copy->importJsonLines(broken, "in.jsonl"));
  EXPECT_TRUE(llvm::StringRef(message).starts_with(
      "in.jsonl:4: invalid JSON: [1:" + std::to_string(lines[2].size() - 5)))
      << message;
  // All or nothing: the good lines before it were not imported.
  EXPECT_EQ(exportAll(*copy), "");

  std::string wrongField = lines[0].str();
  size_t at = wrongField.find("\"trial\":");
  ASSERT_NE(at, std::string::npos);
  wrongField.replace(at, 8, "\"trial\":\"x\",\"old\":");
  EXPECT_EQ(errorMessage(copy->importJsonLines(
                lines[0].str() + "\n" + wrongField, "in.jsonl")),
            "in.jsonl:2: 'trial' must be an integer");
  EXPECT_EQ(errorMessage(copy->importJsonLines("[1, 2]", "in.jsonl")),
            "in.jsonl:1: not a JSON object");
  EXPECT_EQ(errorMessage(copy->importJsonLines("{}", "in.jsonl")),
            "in.jsonl:1: 'run' must be an object");

  std::string badStatus = lines[0].str();
  at = badStatus.find("\"status\":\"ok\"");
  ASSERT_NE(at, std::string::npos);
  badStatus.replace(at, 13, "\"status\":\"great\"");
  EXPECT_EQ(errorMessage(copy->importJsonLines(badStatus, "in.jsonl")),
            "in.jsonl:1: unknown status 'great'");

  std::string lying = lines[0].str();
  at = lying.find("\"simulated\":true,\"sketch\"");
  ASSERT_NE(at, std::string::npos);
  lying.replace(at, 16, "\"simulated\":false");
  EXPECT_EQ(errorMessage(copy->importJsonLines(lying, "in.jsonl")),
            "in.jsonl:1: target 'sim:h100-sxm' contradicts simulated = false");

  std::string missing = dir.path("missing.jsonl");
  EXPECT_EQ(errorMessage(copy->importJsonLinesFile(missing)),
            missing + ": cannot read: No such file or directory");
  EXPECT_EQ(exportAll(*copy), "");
}

} // namespace
