//===- Sqlite.h - A thin layer over the SQLite C API ------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Owned connections, cached prepared statements and transactions, reporting
// failures as llvm::Error values that name the database file. Private to the
// records database.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LIB_TUNING_RECORDS_SQLITE_H
#define TESSEL_LIB_TUNING_RECORDS_SQLITE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>

struct sqlite3;
struct sqlite3_stmt;

namespace mlir {
namespace tessel {
namespace sqlite {

class Connection;

/// A prepared statement borrowed from a Connection's cache; it is reset and
/// its bindings cleared when the Statement goes away.
class Statement {
public:
  Statement(Connection &conn, sqlite3_stmt *stmt) : conn(&conn), stmt(stmt) {}
  Statement(Statement &&other)
      : conn(other.conn), stmt(std::exchange(other.stmt, nullptr)) {}
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;
  Statement &operator=(Statement &&) = delete;
  ~Statement();

  /// Binds parameter `index` (1-based).
  Statement &bind(int index, int64_t value);
  Statement &bind(int index, double value);
  Statement &bind(int index, llvm::StringRef value);
  Statement &bindNull(int index);

  /// Steps once: true when a row is available, false when done.
  llvm::Expected<bool> step();
  /// Steps until done, for statements without results.
  llvm::Error run();

  bool isNull(int column) const;
  int64_t getInt(int column) const;
  double getDouble(int column) const;
  std::string getText(int column) const;

private:
  Connection *conn;
  sqlite3_stmt *stmt;
};

/// An open database handle; closes it, and its cached statements, when
/// destroyed.
class Connection {
public:
  /// Takes `db` (possibly a handle that failed to open) for the file `path`.
  Connection(sqlite3 *db, std::string path) : db(db), path(std::move(path)) {}
  Connection(const Connection &) = delete;
  Connection &operator=(const Connection &) = delete;
  ~Connection();

  sqlite3 *get() const { return db; }
  llvm::StringRef getPath() const { return path; }

  /// "<path>: <what>: <SQLite's last message>", where a context set by
  /// setErrorContext() replaces `what`.
  llvm::Error error(llvm::StringRef what) const;
  /// Names what failed in every SQLite error until cleared (set to "").
  void setErrorContext(llvm::StringRef context) {
    errorContext = context.str();
  }
  /// "<path>: <message>".
  llvm::Error error(const llvm::Twine &message, std::nullptr_t) const;

  /// Prepares `sql` (a string literal: cached by address) for one use.
  llvm::Expected<Statement> prepare(const char *sql);
  /// Runs one or more statements without results.
  llvm::Error exec(const char *sql);
  /// Runs `sql` and returns the integer in the first column of its first row.
  llvm::Expected<int64_t> queryInt(const char *sql);
  /// Runs `sql` and returns the text in the first column of its first row.
  llvm::Expected<std::string> queryText(const char *sql);

private:
  friend class Statement;
  sqlite3 *db;
  std::string path;
  std::string errorContext;
  llvm::DenseMap<const char *, sqlite3_stmt *> cache;
};

/// An immediate (write-locking) transaction, rolled back unless committed.
class Transaction {
public:
  static llvm::Expected<Transaction> begin(Connection &conn);
  Transaction(Transaction &&other) : conn(std::exchange(other.conn, nullptr)) {}
  Transaction(const Transaction &) = delete;
  Transaction &operator=(const Transaction &) = delete;
  Transaction &operator=(Transaction &&) = delete;
  ~Transaction();

  llvm::Error commit();

private:
  explicit Transaction(Connection &conn) : conn(&conn) {}
  Connection *conn;
};

} // namespace sqlite
} // namespace tessel
} // namespace mlir

#endif // TESSEL_LIB_TUNING_RECORDS_SQLITE_H
