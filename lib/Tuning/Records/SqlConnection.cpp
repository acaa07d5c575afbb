//===- SqlConnection.cpp - The SQL engine under the records ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "SqlConnection.h"

using namespace mlir::tessel::sql;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

PreparedStatement::~PreparedStatement() = default;

Error Statement::run() {
  while (true) {
    Expected<bool> row = step();
    if (!row)
      return row.takeError();
    if (!*row)
      return Error::success();
  }
}

Connection::~Connection() = default;

Error Connection::error(StringRef what) const {
  std::string message = lastMessage();
  if (!errorContext.empty())
    what = errorContext;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 name + ": " + what + ": " + message);
}

Error Connection::error(const llvm::Twine &message, std::nullptr_t) const {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 name + ": " + message);
}

Expected<Statement> Connection::prepare(const char *sql) {
  std::unique_ptr<PreparedStatement> &stmt = cache[sql];
  if (!stmt) {
    bool ok = false;
    stmt = prepareStatement(sql, ok);
    if (!ok) {
      cache.erase(sql);
      return error(StringRef(sql).split('\n').first.trim());
    }
  }
  return Statement(*stmt);
}

/// The first column of the first row of `stmt`.
template <typename T, typename Get>
static Expected<T> firstValue(Connection &conn, const char *sql, Get get) {
  Expected<Statement> stmt = conn.prepare(sql);
  if (!stmt)
    return stmt.takeError();
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return conn.error(llvm::Twine("no result from '") + sql + "'", nullptr);
  return get(*stmt);
}

Expected<int64_t> Connection::queryInt(const char *sql) {
  return firstValue<int64_t>(
      *this, sql, [](const Statement &stmt) { return stmt.getInt(0); });
}

Expected<std::string> Connection::queryText(const char *sql) {
  return firstValue<std::string>(
      *this, sql, [](const Statement &stmt) { return stmt.getText(0); });
}

Expected<Transaction> Transaction::begin(Connection &conn) {
  if (Error err = conn.beginWriting())
    return std::move(err);
  return Transaction(conn);
}

Transaction::~Transaction() {
  if (conn && conn->inTransaction())
    llvm::consumeError(conn->exec("ROLLBACK"));
}

Error Transaction::commit() {
  Connection *c = std::exchange(conn, nullptr);
  if (Error err = c->exec("COMMIT")) {
    if (c->inTransaction())
      llvm::consumeError(c->exec("ROLLBACK"));
    return err;
  }
  return Error::success();
}
