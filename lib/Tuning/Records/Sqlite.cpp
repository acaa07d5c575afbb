//===- Sqlite.cpp - The records' SQL over SQLite --------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "Sqlite.h"

#include <cassert>
#include <sqlite3.h>

using namespace mlir::tessel::sql;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace {
/// A statement prepared once (SQLITE_PREPARE_PERSISTENT) and reused.
class SqliteStatement : public PreparedStatement {
public:
  SqliteStatement(SqliteConnection &conn, sqlite3_stmt *stmt)
      : conn(conn), stmt(stmt) {}
  ~SqliteStatement() override { sqlite3_finalize(stmt); }

  void bind(int index, int64_t value) override {
    [[maybe_unused]] int rc = sqlite3_bind_int64(stmt, index, value);
    assert(rc == SQLITE_OK && "bad bind index");
  }
  void bind(int index, double value) override {
    [[maybe_unused]] int rc = sqlite3_bind_double(stmt, index, value);
    assert(rc == SQLITE_OK && "bad bind index");
  }
  void bind(int index, StringRef value) override {
    [[maybe_unused]] int rc = sqlite3_bind_text64(
        stmt, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    assert(rc == SQLITE_OK && "bad bind index");
  }
  void bindNull(int index) override {
    [[maybe_unused]] int rc = sqlite3_bind_null(stmt, index);
    assert(rc == SQLITE_OK && "bad bind index");
  }

  Expected<bool> step() override {
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
      return true;
    if (rc == SQLITE_DONE)
      return false;
    return conn.error(StringRef(sqlite3_sql(stmt)).split('\n').first.trim());
  }

  bool isNull(int column) const override {
    return sqlite3_column_type(stmt, column) == SQLITE_NULL;
  }
  int64_t getInt(int column) const override {
    return sqlite3_column_int64(stmt, column);
  }
  double getDouble(int column) const override {
    return sqlite3_column_double(stmt, column);
  }
  std::string getText(int column) const override {
    const unsigned char *text = sqlite3_column_text(stmt, column);
    if (!text)
      return {};
    return std::string(reinterpret_cast<const char *>(text),
                       sqlite3_column_bytes(stmt, column));
  }

  void reset() override {
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
  }

private:
  SqliteConnection &conn;
  sqlite3_stmt *stmt;
};
} // namespace

SqliteConnection::~SqliteConnection() {
  // Statements first: a connection with unfinalized statements stays open.
  clearStatements();
  // Closing the last connection checkpoints the WAL into the database file.
  sqlite3_close_v2(db);
}

std::string SqliteConnection::lastMessage() const {
  return db ? sqlite3_errmsg(db) : "out of memory";
}

std::unique_ptr<PreparedStatement>
SqliteConnection::prepareStatement(const char *sql, bool &ok) {
  sqlite3_stmt *stmt = nullptr;
  ok = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt,
                          nullptr) == SQLITE_OK;
  if (!ok)
    return nullptr;
  return std::make_unique<SqliteStatement>(*this, stmt);
}

Error SqliteConnection::exec(const char *sql) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
    return error(StringRef(sql).split('\n').first.trim());
  return Error::success();
}

Error SqliteConnection::beginWriting() { return exec("BEGIN IMMEDIATE"); }

bool SqliteConnection::inTransaction() const {
  return !sqlite3_get_autocommit(db);
}
