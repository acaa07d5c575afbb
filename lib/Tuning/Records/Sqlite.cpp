//===- Sqlite.cpp - A thin layer over the SQLite C API --------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "Sqlite.h"

#include "llvm/ADT/Twine.h"

#include <cassert>
#include <sqlite3.h>

using namespace mlir::tessel::sqlite;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Statement
//===----------------------------------------------------------------------===//

Statement::~Statement() {
  if (!stmt)
    return;
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
}

Statement &Statement::bind(int index, int64_t value) {
  [[maybe_unused]] int rc = sqlite3_bind_int64(stmt, index, value);
  assert(rc == SQLITE_OK && "bad bind index");
  return *this;
}

Statement &Statement::bind(int index, double value) {
  [[maybe_unused]] int rc = sqlite3_bind_double(stmt, index, value);
  assert(rc == SQLITE_OK && "bad bind index");
  return *this;
}

Statement &Statement::bind(int index, StringRef value) {
  [[maybe_unused]] int rc = sqlite3_bind_text64(
      stmt, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  assert(rc == SQLITE_OK && "bad bind index");
  return *this;
}

Statement &Statement::bindNull(int index) {
  [[maybe_unused]] int rc = sqlite3_bind_null(stmt, index);
  assert(rc == SQLITE_OK && "bad bind index");
  return *this;
}

Expected<bool> Statement::step() {
  int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW)
    return true;
  if (rc == SQLITE_DONE)
    return false;
  return conn->error(StringRef(sqlite3_sql(stmt)).split('\n').first.trim());
}

Error Statement::run() {
  while (true) {
    Expected<bool> row = step();
    if (!row)
      return row.takeError();
    if (!*row)
      return Error::success();
  }
}

bool Statement::isNull(int column) const {
  return sqlite3_column_type(stmt, column) == SQLITE_NULL;
}

int64_t Statement::getInt(int column) const {
  return sqlite3_column_int64(stmt, column);
}

double Statement::getDouble(int column) const {
  return sqlite3_column_double(stmt, column);
}

std::string Statement::getText(int column) const {
  const unsigned char *text = sqlite3_column_text(stmt, column);
  if (!text)
    return {};
  return std::string(reinterpret_cast<const char *>(text),
                     sqlite3_column_bytes(stmt, column));
}

//===----------------------------------------------------------------------===//
// Connection
//===----------------------------------------------------------------------===//

Connection::~Connection() {
  for (auto &entry : cache)
    sqlite3_finalize(entry.second);
  // Closing the last connection checkpoints the WAL into the database file.
  sqlite3_close_v2(db);
}

Error Connection::error(StringRef what) const {
  StringRef message = db ? sqlite3_errmsg(db) : "out of memory";
  if (!errorContext.empty())
    what = errorContext;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + what + ": " + message);
}

Error Connection::error(const llvm::Twine &message, std::nullptr_t) const {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + message);
}

Expected<Statement> Connection::prepare(const char *sql) {
  sqlite3_stmt *&stmt = cache[sql];
  if (!stmt && sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt,
                                  nullptr) != SQLITE_OK) {
    cache.erase(sql);
    return error(StringRef(sql).split('\n').first.trim());
  }
  return Statement(*this, stmt);
}

Error Connection::exec(const char *sql) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
    return error(StringRef(sql).split('\n').first.trim());
  return Error::success();
}

Expected<int64_t> Connection::queryInt(const char *sql) {
  Expected<Statement> stmt = prepare(sql);
  if (!stmt)
    return stmt.takeError();
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return error(llvm::Twine("no result from '") + sql + "'", nullptr);
  return stmt->getInt(0);
}

Expected<std::string> Connection::queryText(const char *sql) {
  Expected<Statement> stmt = prepare(sql);
  if (!stmt)
    return stmt.takeError();
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return error(llvm::Twine("no result from '") + sql + "'", nullptr);
  return stmt->getText(0);
}

//===----------------------------------------------------------------------===//
// Transaction
//===----------------------------------------------------------------------===//

Expected<Transaction> Transaction::begin(Connection &conn) {
  if (Error err = conn.exec("BEGIN IMMEDIATE"))
    return std::move(err);
  return Transaction(conn);
}

Transaction::~Transaction() {
  if (conn && !sqlite3_get_autocommit(conn->get()))
    sqlite3_exec(conn->get(), "ROLLBACK", nullptr, nullptr, nullptr);
}

Error Transaction::commit() {
  Connection *c = std::exchange(conn, nullptr);
  if (sqlite3_exec(c->get(), "COMMIT", nullptr, nullptr, nullptr) !=
      SQLITE_OK) {
    Error err = c->error("COMMIT");
    if (!sqlite3_get_autocommit(c->get()))
      sqlite3_exec(c->get(), "ROLLBACK", nullptr, nullptr, nullptr);
    return err;
  }
  return Error::success();
}
