//===- SqlConnection.h - The SQL engine under the records -------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The records database talks SQL through this small interface: a connection
// with cached prepared statements and transactions, reporting failures as
// llvm::Error values that name the database. SQLite (Sqlite.h) and
// PostgreSQL (Postgres.h) implement it. Statements are written once, in the
// SQL both engines accept, with SQLite's numbered parameters `?1` .. `?N`;
// the PostgreSQL connection rewrites them to `$1` .. `$N`. Private to the
// records database.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LIB_TUNING_RECORDS_SQLCONNECTION_H
#define TESSEL_LIB_TUNING_RECORDS_SQLCONNECTION_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace mlir {
namespace tessel {
namespace sql {

class Connection;

/// Which engine a connection talks to.
enum class Engine { SQLite, PostgreSQL };

/// A prepared statement of one engine. Bindings are 1-based; columns
/// 0-based.
class PreparedStatement {
public:
  virtual ~PreparedStatement();

  virtual void bind(int index, int64_t value) = 0;
  virtual void bind(int index, double value) = 0;
  virtual void bind(int index, llvm::StringRef value) = 0;
  virtual void bindNull(int index) = 0;

  /// Steps once: true when a row is available, false when done.
  virtual llvm::Expected<bool> step() = 0;

  virtual bool isNull(int column) const = 0;
  virtual int64_t getInt(int column) const = 0;
  virtual double getDouble(int column) const = 0;
  virtual std::string getText(int column) const = 0;

  /// Makes the statement ready to run again, with its bindings cleared.
  virtual void reset() = 0;
};

/// A prepared statement borrowed from a Connection's cache; it is reset and
/// its bindings cleared when the Statement goes away.
class Statement {
public:
  explicit Statement(PreparedStatement &stmt) : stmt(&stmt) {}
  Statement(Statement &&other) : stmt(std::exchange(other.stmt, nullptr)) {}
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;
  Statement &operator=(Statement &&) = delete;
  ~Statement() {
    if (stmt)
      stmt->reset();
  }

  /// Binds parameter `index` (1-based).
  Statement &bind(int index, int64_t value) {
    stmt->bind(index, value);
    return *this;
  }
  Statement &bind(int index, double value) {
    stmt->bind(index, value);
    return *this;
  }
  Statement &bind(int index, llvm::StringRef value) {
    stmt->bind(index, value);
    return *this;
  }
  Statement &bindNull(int index) {
    stmt->bindNull(index);
    return *this;
  }

  /// Steps once: true when a row is available, false when done.
  llvm::Expected<bool> step() { return stmt->step(); }
  /// Steps until done, for statements without results.
  llvm::Error run();

  bool isNull(int column) const { return stmt->isNull(column); }
  int64_t getInt(int column) const { return stmt->getInt(column); }
  double getDouble(int column) const { return stmt->getDouble(column); }
  std::string getText(int column) const { return stmt->getText(column); }

private:
  PreparedStatement *stmt;
};

/// An open connection to a database; closes it, and its cached statements,
/// when destroyed.
class Connection {
public:
  Connection(Engine engine, std::string name)
      : engine(engine), name(std::move(name)) {}
  Connection(const Connection &) = delete;
  Connection &operator=(const Connection &) = delete;
  virtual ~Connection();

  Engine getEngine() const { return engine; }
  /// The file, or the URL without its password, that messages name.
  llvm::StringRef getName() const { return name; }

  /// "<name>: <what>: <the engine's last message>", where a context set by
  /// setErrorContext() replaces `what`.
  llvm::Error error(llvm::StringRef what) const;
  /// Names what failed in every engine error until cleared (set to "").
  void setErrorContext(llvm::StringRef context) {
    errorContext = context.str();
  }
  /// "<name>: <message>".
  llvm::Error error(const llvm::Twine &message, std::nullptr_t) const;

  /// Prepares `sql` (a string literal: cached by address) for one use.
  llvm::Expected<Statement> prepare(const char *sql);
  /// Runs one or more statements without parameters or results.
  virtual llvm::Error exec(const char *sql) = 0;
  /// Runs `sql` and returns the integer in the first column of its first row.
  llvm::Expected<int64_t> queryInt(const char *sql);
  /// Runs `sql` and returns the text in the first column of its first row.
  llvm::Expected<std::string> queryText(const char *sql);

  /// Starts a transaction that holds the database's write lock from its
  /// first statement (SQLite: BEGIN IMMEDIATE; PostgreSQL: BEGIN and a
  /// transaction-scoped advisory lock), so that a read inside it may decide
  /// a write.
  virtual llvm::Error beginWriting() = 0;
  /// Whether a transaction is open.
  virtual bool inTransaction() const = 0;

protected:
  /// Finalizes the cached statements (before the engine's handle closes).
  void clearStatements() { cache.clear(); }
  /// Prepares `sql`; on failure the engine's message is what lastMessage()
  /// returns.
  virtual std::unique_ptr<PreparedStatement> prepareStatement(const char *sql,
                                                              bool &ok) = 0;
  /// The engine's message about the last failure.
  virtual std::string lastMessage() const = 0;

private:
  Engine engine;
  std::string name;
  std::string errorContext;
  llvm::DenseMap<const char *, std::unique_ptr<PreparedStatement>> cache;
};

/// A write transaction (Connection::beginWriting()), rolled back unless
/// committed.
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

} // namespace sql
} // namespace tessel
} // namespace mlir

#endif // TESSEL_LIB_TUNING_RECORDS_SQLCONNECTION_H
