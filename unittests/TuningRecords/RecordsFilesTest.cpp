//===- RecordsFilesTest.cpp - Opening files that are not records ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Files that are not Tessel records databases of a supported schema are
// refused with an error naming the file, and are never modified.
//
//===----------------------------------------------------------------------===//

#include "RecordsTestUtils.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::records_test;
using OpenMode = RecordsDatabase::OpenMode;

namespace {

constexpr OpenMode kAllModes[] = {OpenMode::CreateOrOpen,
                                  OpenMode::OpenExisting, OpenMode::ReadOnly};

/// Opens `path` in every mode, expecting `message` each time and the file's
/// bytes unchanged afterwards (and no WAL files left behind).
void expectRefused(const std::string &path, const std::string &message) {
  std::string before = readBytes(path);
  ASSERT_NE(before, "<missing>");
  for (OpenMode mode : kAllModes) {
    SCOPED_TRACE(static_cast<int>(mode));
    EXPECT_EQ(errorMessage(RecordsDatabase::open(path, mode)), message);
    EXPECT_EQ(readBytes(path), before);
    // A read-only connection to a WAL database cannot remove the (empty)
    // -wal file it created; other modes leave nothing behind.
    uint64_t walSize = 0;
    if (!llvm::sys::fs::file_size(path + "-wal", walSize)) {
      EXPECT_TRUE(mode == OpenMode::ReadOnly && walSize == 0) << walSize;
    }
    EXPECT_FALSE(llvm::sys::fs::exists(path + "-journal"));
  }
}

/// A records database at `path` with `count` measurements, each with a long
/// message so that the file spans many pages.
void populate(const std::string &path, int count) {
  auto db = openOrFail(path);
  ASSERT_TRUE(db);
  int64_t run = get(db->beginRun(makeRun()));
  int64_t task = get(db->getOrAddTask("mm", "matmul", 2e9, 1, ""));
  int64_t sketch = get(db->getOrAddSketch(task, "#tessel.sketch<s>"));
  for (int i = 0; i < count; ++i) {
    int64_t config = get(db->getOrAddConfig(
        sketch, "#tessel.config<" + std::to_string(i) + ">"));
    MeasureResult result = makeResult(MeasureStatus::Ok, 10 + i);
    result.message = std::string(200, 'a' + i % 26);
    ASSERT_GT(get(db->addMeasurement(run, config, result, i, i)), 0);
  }
}

TEST(RecordsFilesTest, NotADatabase) {
  TempDir dir;
  std::string path = dir.path("notes.txt");
  std::string text;
  for (int i = 0; i < 100; ++i)
    text +=
        "These are my notes, not a database. Line " + std::to_string(i) + "\n";
  writeBytes(path, text);
  expectRefused(
      path, path + ": cannot open records database: file is not a database");
}

TEST(RecordsFilesTest, ShortFile) {
  TempDir dir;
  std::string path = dir.path("short.db");
  writeBytes(path, "SQLite format 3");
  expectRefused(
      path, path + ": cannot open records database: file is not a database");
}

TEST(RecordsFilesTest, OtherApplicationId) {
  TempDir dir;
  std::string path = dir.path("other.db");
  execRaw(path, "PRAGMA application_id = 305419896;"
                "CREATE TABLE meta (key TEXT, value TEXT);"
                "INSERT INTO meta VALUES ('schema_version', '1');");
  expectRefused(path, path + ": not a Tessel records database "
                             "(application_id 0x12345678, expected "
                             "0x54534c52)");
}

TEST(RecordsFilesTest, ForeignTablesWithoutApplicationId) {
  TempDir dir;
  std::string path = dir.path("foreign.db");
  execRaw(path, "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);"
                "CREATE TABLE runs (id INTEGER PRIMARY KEY);"
                "INSERT INTO users (name) VALUES ('ada');");
  expectRefused(path, path + ": not a Tessel records database (no Tessel "
                             "application_id; tables: runs, users)");
}

TEST(RecordsFilesTest, ForeignWalDatabase) {
  TempDir dir;
  std::string path = dir.path("foreign-wal.db");
  execRaw(path, "PRAGMA journal_mode = WAL;"
                "CREATE TABLE things (id INTEGER PRIMARY KEY);");
  expectRefused(path, path + ": not a Tessel records database (no Tessel "
                             "application_id; tables: things)");
}

TEST(RecordsFilesTest, NewerSchemaVersion) {
  TempDir dir;
  std::string path = dir.path("future.db");
  ASSERT_TRUE(openOrFail(path));
  execRaw(path, "UPDATE meta SET value = '5' WHERE key = 'schema_version';"
                "PRAGMA user_version = 5;");
  expectRefused(path, path + ": records database schema version 5 is newer "
                             "than this Tessel supports (4)");
}

/// The PostgreSQL forms of the refusals: nothing is written into a database
/// that is not a records database of a known version.
using RecordsPostgresFilesTest = EngineTest;
INSTANTIATE_TEST_SUITE_P(Engines, RecordsPostgresFilesTest,
                         ::testing::Values(Engine::PostgreSQL), printEngine);

TEST_P(RecordsPostgresFilesTest, RefusesForeignAndNewerDatabases) {
  std::string url = location();
  // Empty: only CreateOrOpen creates the schema.
  std::string name;
  {
    auto refused = RecordsDatabase::open(url, OpenMode::OpenExisting);
    ASSERT_FALSE(bool(refused));
    name = llvm::StringRef(llvm::toString(refused.takeError()))
               .split(": ")
               .first.str();
  }
  EXPECT_NE(name.find("tessel:***@"), std::string::npos) << name;
  EXPECT_EQ(name.find("tessel:tessel@"), std::string::npos) << name;
  EXPECT_EQ(errorMessage(RecordsDatabase::open(url, OpenMode::ReadOnly)),
            name + ": not a Tessel records database (it has no tables)");
  EXPECT_EQ(queryRawInt(url, "SELECT count(*) FROM information_schema.tables "
                             "WHERE table_schema = current_schema()"),
            0);
  // Another application's tables.
  EXPECT_EQ(postgres_test::execOnServer(url, "CREATE TABLE orders (id int)"),
            "");
  for (OpenMode mode :
       {OpenMode::CreateOrOpen, OpenMode::OpenExisting, OpenMode::ReadOnly})
    EXPECT_EQ(errorMessage(RecordsDatabase::open(url, mode)),
              name + ": not a Tessel records database (tables: orders)");
  EXPECT_EQ(postgres_test::execOnServer(url, "DROP TABLE orders"), "");
  // A newer schema.
  ASSERT_TRUE(openOrFail(url));
  EXPECT_EQ(postgres_test::execOnServer(
                url, "UPDATE meta SET value = '5' WHERE key = "
                     "'schema_version'"),
            "");
  for (OpenMode mode :
       {OpenMode::CreateOrOpen, OpenMode::OpenExisting, OpenMode::ReadOnly})
    EXPECT_EQ(errorMessage(RecordsDatabase::open(url, mode)),
              name + ": records database schema version 5 is newer than "
                     "this Tessel supports (4)");
}

TEST(RecordsPostgresFilesTest, UnreachableServerAndWrongPassword) {
  // Nothing listens on port 1.
  EXPECT_EQ(
      errorMessage(RecordsDatabase::open(
          "postgresql://tessel:secret@127.0.0.1:1/tessel", OpenMode::ReadOnly)),
      "postgresql://tessel:***@127.0.0.1:1/tessel: cannot connect: "
      "connection to server at \"127.0.0.1\", port 1 failed: Connection "
      "refused Is the server running on that host and accepting TCP/IP "
      "connections?");
  postgres_test::Server &server = postgres_test::getServer();
  if (server.url.empty())
    GTEST_SKIP() << "no PostgreSQL server for the test: " << server.problem;
  std::string wrong = server.url;
  size_t at = wrong.find('@');
  size_t colon = wrong.rfind(':', at);
  wrong.replace(colon + 1, at - colon - 1, "wrong");
  std::string message =
      errorMessage(RecordsDatabase::open(wrong, OpenMode::CreateOrOpen));
  EXPECT_NE(message.find(": cannot connect: "), std::string::npos) << message;
  EXPECT_NE(message.find("password authentication failed for user \"tessel\""),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find("wrong"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(RecordsFilesTest, TesselApplicationIdWithoutMeta) {
  TempDir dir;
  std::string path = dir.path("broken.db");
  execRaw(path, "PRAGMA application_id = 1414745170;"
                "CREATE TABLE runs (id INTEGER PRIMARY KEY);");
  expectRefused(path,
                path + ": corrupt Tessel records database (no meta table)");
}

TEST(RecordsFilesTest, TruncatedFile) {
  TempDir dir;
  std::string path = dir.path("truncated.db");
  populate(path, 200);
  std::string whole = readBytes(path);
  ASSERT_GT(whole.size(), 16u * 4096);
  writeBytes(path, llvm::StringRef(whole).take_front(whole.size() / 2));
  expectRefused(path, path + ": cannot open records database: database disk "
                             "image is malformed");
}

TEST(RecordsFilesTest, CorruptPages) {
  TempDir dir;
  std::string path = dir.path("corrupt.db");
  populate(path, 200);
  std::string bytes = readBytes(path);
  ASSERT_GT(bytes.size(), 16u * 4096);
  // Scribble over pages 3 to 8, keeping the header page intact.
  for (size_t i = 2 * 4096; i < 8 * 4096; ++i)
    bytes[i] = static_cast<char>(i * 7 + 3);
  writeBytes(path, bytes);
  std::string before = readBytes(path);
  for (OpenMode mode : kAllModes) {
    auto db = RecordsDatabase::open(path, mode);
    ASSERT_FALSE(db);
    std::string message = llvm::toString(db.takeError());
    EXPECT_TRUE(llvm::StringRef(message).starts_with(path + ": ")) << message;
    EXPECT_NE(message.find("malformed"), std::string::npos) << message;
    EXPECT_EQ(readBytes(path), before);
  }
}

TEST(RecordsFilesTest, MissingFile) {
  TempDir dir;
  std::string path = dir.path("missing.db");
  for (OpenMode mode : {OpenMode::OpenExisting, OpenMode::ReadOnly})
    EXPECT_EQ(errorMessage(RecordsDatabase::open(path, mode)),
              path + ": records database does not exist");
  EXPECT_FALSE(llvm::sys::fs::exists(path));
  std::string nested = dir.path("no/such/dir.db");
  EXPECT_EQ(errorMessage(RecordsDatabase::open(nested, OpenMode::CreateOrOpen)),
            nested + ": cannot open records database: unable to open "
                     "database file");
}

TEST(RecordsFilesTest, Directory) {
  TempDir dir;
  std::string path = dir.path("");
  EXPECT_EQ(errorMessage(RecordsDatabase::open(path, OpenMode::CreateOrOpen)),
            path + ": is a directory, not a records database");
}

TEST(RecordsFilesTest, EmptyFile) {
  TempDir dir;
  std::string path = dir.path("empty.db");
  writeBytes(path, "");
  for (OpenMode mode : {OpenMode::OpenExisting, OpenMode::ReadOnly})
    EXPECT_EQ(errorMessage(RecordsDatabase::open(path, mode)),
              path + ": not a Tessel records database (it is empty)");
  EXPECT_EQ(readBytes(path), "");
  // An empty file is an empty database: CreateOrOpen makes it ours.
  ASSERT_TRUE(openOrFail(path));
  EXPECT_TRUE(openOrFail(path, OpenMode::OpenExisting));
}

TEST(RecordsFilesTest, ReopeningKeepsTheFileValid) {
  TempDir dir;
  std::string path = dir.path("records.db");
  populate(path, 3);
  for (int i = 0; i < 3; ++i) {
    auto db = openOrFail(path, OpenMode::OpenExisting);
    ASSERT_TRUE(db);
    expectIntact(*db);
  }
  EXPECT_EQ(queryRawInt(path, "SELECT count(*) FROM measurements"), 3);
}

} // namespace
