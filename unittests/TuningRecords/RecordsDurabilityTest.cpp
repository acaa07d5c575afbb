//===- RecordsDurabilityTest.cpp - Killed writers and busy databases ------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "RecordsTestUtils.h"

#include <chrono>
#include <csignal>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::records_test;
using OpenMode = RecordsDatabase::OpenMode;

namespace {

/// The child's exit status when something fails before it kills itself.
constexpr int kChildFailed = 3;

/// In a forked child: opens `path`, records measurements and kills itself
/// with SIGKILL right after the `killAfter`-th addMeasurement() returned.
[[noreturn]] void recordThenDie(const std::string &path, int total,
                                int killAfter) {
  auto db = RecordsDatabase::open(path, OpenMode::CreateOrOpen);
  if (!db) {
    llvm::consumeError(db.takeError());
    _exit(kChildFailed);
  }
  auto run = (*db)->beginRun(makeRun());
  auto task = (*db)->getOrAddTask("mm", "matmul", 2e9, 1, "");
  if (!run || !task)
    _exit(kChildFailed);
  auto sketch = (*db)->getOrAddSketch(*task, "#tessel.sketch<s>");
  if (!sketch)
    _exit(kChildFailed);
  for (int i = 0; i < total; ++i) {
    auto config = (*db)->getOrAddConfig(*sketch, "#tessel.config<" +
                                                     std::to_string(i) + ">");
    if (!config)
      _exit(kChildFailed);
    auto id = (*db)->addMeasurement(
        *run, *config, makeResult(MeasureStatus::Ok, 10 + i), i, i);
    if (!id)
      _exit(kChildFailed);
    if (i + 1 == killAfter)
      raise(SIGKILL);
  }
  _exit(kChildFailed);
}

TEST(RecordsDurabilityTest, SigkillLosesNoCommittedMeasurement) {
  TempDir dir;
  std::string path = dir.path("records.db");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0)
    recordThenDie(path, /*total=*/20, /*killAfter=*/7);

  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exited with " << status;
  ASSERT_EQ(WTERMSIG(status), SIGKILL);
  // The child never closed the database: its commits are in the WAL.
  EXPECT_TRUE(llvm::sys::fs::exists(path + "-wal"));

  auto db = openOrFail(path, OpenMode::OpenExisting);
  ASSERT_TRUE(db);
  expectIntact(*db);
  std::optional<TaskInfo> task = get(db->getTask("mm"));
  ASSERT_TRUE(task);
  std::vector<MeasurementRecord> rows =
      get(db->getMeasurements(task->id, "sim:h100-sxm"));
  ASSERT_EQ(rows.size(), 7u);
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(rows[i].trial, i);
    EXPECT_EQ(rows[i].config, "#tessel.config<" + std::to_string(i) + ">");
    EXPECT_EQ(rows[i].timing.medianUs, 10 + i);
    EXPECT_EQ(rows[i].timing.repeats, 10);
    EXPECT_TRUE(rows[i].simulated);
  }
  // The run resumes where the killed one stopped.
  EXPECT_TRUE(get(db->hasMeasured(rows[6].configId, "sim:h100-sxm")));
  EXPECT_EQ(get(db->getRuns()).size(), 1u);
}

TEST(RecordsDurabilityTest, WaitsForABusyDatabase) {
  TempDir dir;
  std::string path = dir.path("records.db");
  auto db = openOrFail(path);
  ASSERT_TRUE(db);
  int64_t run = get(db->beginRun(makeRun()));
  int64_t task = get(db->getOrAddTask("mm", "matmul", 2e9, 1, ""));
  int64_t sketch = get(db->getOrAddSketch(task, "#tessel.sketch<s>"));
  int64_t config = get(db->getOrAddConfig(sketch, "#tessel.config<c>"));

  // Another connection holds the write lock for a while.
  sqlite3 *other = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr),
            SQLITE_OK);
  std::thread release([other] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr);
  });
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<int64_t> id =
      db->addMeasurement(run, config, makeResult(MeasureStatus::Ok, 10), 1, 1);
  auto waited = std::chrono::steady_clock::now() - start;
  release.join();
  sqlite3_close(other);
  EXPECT_GT(get(std::move(id)), 0);
  EXPECT_GE(waited, std::chrono::milliseconds(200));
}

} // namespace
