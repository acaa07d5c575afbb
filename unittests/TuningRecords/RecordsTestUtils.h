//===- RecordsTestUtils.h - Helpers for the records tests -------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_UNITTESTS_TUNINGRECORDS_RECORDSTESTUTILS_H
#define TESSEL_UNITTESTS_TUNINGRECORDS_RECORDSTESTUTILS_H

#include "tessel/Tuning/Records/RecordsDatabase.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "../Support/PostgresTestServer.h"

#include "gtest/gtest.h"

#include <optional>
#include <sqlite3.h>

#include <fstream>
#include <string>

namespace mlir {
namespace tessel {
namespace records_test {

/// A fresh directory, removed with its contents at the end of the test.
class TempDir {
public:
  TempDir() {
    std::error_code ec =
        llvm::sys::fs::createUniqueDirectory("tessel-records", dir);
    EXPECT_FALSE(ec) << ec.message();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(dir); }

  /// The path of `name` inside the directory.
  std::string path(llvm::StringRef name) const {
    llvm::SmallString<128> result(dir);
    llvm::sys::path::append(result, name);
    return std::string(result);
  }

private:
  llvm::SmallString<128> dir;
};

/// The bytes of the file at `path` ("<missing>" when it cannot be read).
inline std::string readBytes(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return "<missing>";
  return (*buffer)->getBuffer().str();
}

inline void writeBytes(llvm::StringRef path, llvm::StringRef bytes) {
  std::ofstream out(path.str(), std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Runs `sql` on the database at `path` with a plain SQLite connection.
inline void execRaw(llvm::StringRef path, const char *sql) {
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.str().c_str(), &db), SQLITE_OK);
  char *message = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &message), SQLITE_OK)
      << (message ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
}

/// The text in the first column of `sql`'s first row in the PostgreSQL
/// database at `url` ("<none>" when none, "<null>" for NULL).
inline std::string queryPostgresText(llvm::StringRef url, const char *sql) {
  PGconn *conn = PQconnectdb(url.str().c_str());
  std::string result = "<none>";
  if (PQstatus(conn) == CONNECTION_OK) {
    PGresult *rows = PQexec(conn, sql);
    if (PQresultStatus(rows) == PGRES_TUPLES_OK && PQntuples(rows) > 0)
      result = PQgetisnull(rows, 0, 0) ? "<null>" : PQgetvalue(rows, 0, 0);
    else if (PQresultStatus(rows) != PGRES_TUPLES_OK)
      ADD_FAILURE() << sql << ": " << PQresultErrorMessage(rows);
    PQclear(rows);
  } else {
    ADD_FAILURE() << PQerrorMessage(conn);
  }
  PQfinish(conn);
  return result;
}

inline bool isPostgres(llvm::StringRef location) {
  return location.starts_with("postgresql://");
}

/// The integer in the first column of `sql`'s first row (-1 when none), in
/// the SQLite file or PostgreSQL database at `path`.
inline int64_t queryRawInt(llvm::StringRef path, const char *sql) {
  if (isPostgres(path)) {
    std::string text = queryPostgresText(path, sql);
    if (text == "t" || text == "f")
      return text == "t";
    int64_t value = -1;
    return llvm::StringRef(text).getAsInteger(10, value) ? -1 : value;
  }
  sqlite3 *db = nullptr;
  int64_t result = -1;
  if (sqlite3_open_v2(path.str().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
      SQLITE_OK) {
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
      result = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return result;
}

/// The text in the first column of `sql`'s first row ("<none>" when none).
inline std::string queryRawText(llvm::StringRef path, const char *sql) {
  if (isPostgres(path))
    return queryPostgresText(path, sql);
  sqlite3 *db = nullptr;
  std::string result = "<none>";
  if (sqlite3_open_v2(path.str().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
      SQLITE_OK) {
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
      const unsigned char *text = sqlite3_column_text(stmt, 0);
      result = text ? std::string(reinterpret_cast<const char *>(text),
                                  sqlite3_column_bytes(stmt, 0))
                    : "<null>";
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return result;
}

/// The engines a records test runs on.
enum class Engine { SQLite, PostgreSQL };

inline std::string printEngine(const ::testing::TestParamInfo<Engine> &info) {
  return info.param == Engine::SQLite ? "SQLite" : "PostgreSQL";
}

/// A test of the records on each engine: location() is a new, empty records
/// database (a file in a temporary directory, or a schema of the test
/// PostgreSQL server). Skipped, saying why, when PostgreSQL is unavailable.
class EngineTest : public ::testing::TestWithParam<Engine> {
protected:
  void SetUp() override {
    if (GetParam() != Engine::PostgreSQL)
      return;
    schema.emplace();
    if (!schema->available())
      GTEST_SKIP() << schema->whyUnavailable();
  }

  bool onSqlite() const { return GetParam() == Engine::SQLite; }
  std::string location() const {
    return onSqlite() ? dir.path("records.db") : schema->url();
  }

  TempDir dir;
  std::optional<postgres_test::Schema> schema;
};

#define TESSEL_INSTANTIATE_ENGINE_TEST(fixture)                                \
  INSTANTIATE_TEST_SUITE_P(                                                    \
      Engines, fixture, ::testing::Values(Engine::SQLite, Engine::PostgreSQL), \
      printEngine)

/// Opens `path`, failing the test on error.
inline std::unique_ptr<RecordsDatabase> openOrFail(
    llvm::StringRef path,
    RecordsDatabase::OpenMode mode = RecordsDatabase::OpenMode::CreateOrOpen) {
  auto db = RecordsDatabase::open(path, mode);
  if (!db) {
    ADD_FAILURE() << llvm::toString(db.takeError());
    return nullptr;
  }
  return std::move(*db);
}

/// The message of `expected`'s error ("" on success).
template <typename T>
std::string errorMessage(llvm::Expected<T> expected) {
  if (expected)
    return "";
  return llvm::toString(expected.takeError());
}

/// Unwraps `expected`, failing the test (and returning T()) on error.
template <typename T>
T get(llvm::Expected<T> expected) {
  if (!expected) {
    ADD_FAILURE() << llvm::toString(expected.takeError());
    return T();
  }
  return std::move(*expected);
}

/// Expects `PRAGMA integrity_check` to pass on `db`.
inline void expectIntact(RecordsDatabase &db) {
  if (llvm::Error err = db.checkIntegrity())
    ADD_FAILURE() << llvm::toString(std::move(err));
}

/// A result on `target` (simulated when it starts with "sim:").
inline MeasureResult makeResult(MeasureStatus status, double medianUs,
                                llvm::StringRef target = "sim:h100-sxm") {
  MeasureResult result;
  result.key = "candidate";
  result.status = status;
  if (status == MeasureStatus::Ok) {
    result.timing.medianUs = medianUs;
    result.timing.minUs = medianUs * 0.9;
    result.timing.maxUs = medianUs * 1.2;
    result.timing.stddevUs = medianUs * 0.05;
    result.timing.repeats = 10;
  }
  result.resources.registers = 96;
  result.resources.spillStoreBytes = 8;
  result.resources.spillLoadBytes = 4;
  result.resources.sharedMemoryBytes = 24576;
  result.simulated = target.starts_with("sim:");
  result.device = target.str();
  if (status != MeasureStatus::Ok)
    result.message = "failed: " + stringifyMeasureStatus(status).str();
  return result;
}

/// A run of the evolutionary search on the simulated H100.
inline RunInfo makeRun(double startedAt = 1700000000.25) {
  RunInfo run;
  run.startedAt = startedAt;
  run.strategy = "evolutionary";
  run.seed = 42;
  run.measurer = "sim:h100-sxm";
  run.simulated = true;
  run.deviceJson = R"({"name":"h100-sxm","sms":132})";
  run.optionsJson = R"({"trials":64})";
  run.tesselVersion = "0.1.0";
  return run;
}

} // namespace records_test
} // namespace tessel
} // namespace mlir

#endif // TESSEL_UNITTESTS_TUNINGRECORDS_RECORDSTESTUTILS_H
