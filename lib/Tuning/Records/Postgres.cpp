//===- Postgres.cpp - The records' SQL over PostgreSQL --------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "Postgres.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <libpq-fe.h>
#include <optional>
#include <thread>
#include <vector>

using namespace mlir::tessel::sql;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

/// Run on every new connection: every float8 printed exactly (the default
/// since PostgreSQL 12).
static const char *const kSessionSettings = "SET extra_float_digits = 3";

static const char *const kLostInTransaction =
    "the server closed the connection inside a transaction; its work is lost";

/// libpq's message on one line: "ERROR:  " dropped, lines joined.
static std::string oneLine(StringRef message) {
  message = message.trim();
  message.consume_front("ERROR:");
  llvm::SmallVector<StringRef> lines;
  message.split(lines, '\n', -1, /*KeepEmpty=*/false);
  std::string result;
  for (StringRef line : lines) {
    if (!result.empty())
      result += ' ';
    result += line.trim().str();
  }
  return result;
}

namespace {
class PostgresConnection;

/// A statement prepared on the server (PQprepare) and run with text
/// parameters; its whole result is held until reset().
class PostgresStatement : public PreparedStatement {
public:
  PostgresStatement(PostgresConnection &conn, std::string name, const char *sql,
                    std::string text, int parameters, int generation)
      : conn(conn), name(std::move(name)), sql(sql), text(std::move(text)),
        params(parameters), preparedIn(generation) {}
  ~PostgresStatement() override { PQclear(result); }

  void bind(int index, int64_t value) override {
    param(index) = std::to_string(value);
  }
  void bind(int index, double value) override {
    char text[32];
    std::snprintf(text, sizeof(text), "%.17g", value);
    param(index) = text;
  }
  void bind(int index, StringRef value) override { param(index) = value.str(); }
  void bindNull(int index) override { param(index).reset(); }

  Expected<bool> step() override;

  bool isNull(int column) const override {
    return PQgetisnull(result, row, column);
  }
  int64_t getInt(int column) const override {
    const char *text = PQgetvalue(result, row, column);
    // Booleans come back as t and f.
    if (text[0] == 't' || text[0] == 'f')
      return text[0] == 't';
    return std::strtoll(text, nullptr, 10);
  }
  double getDouble(int column) const override {
    return std::strtod(PQgetvalue(result, row, column), nullptr);
  }
  std::string getText(int column) const override {
    return std::string(PQgetvalue(result, row, column),
                       PQgetlength(result, row, column));
  }

  void reset() override {
    PQclear(result);
    result = nullptr;
    row = -1;
    for (std::optional<std::string> &value : params)
      value.reset();
  }

private:
  std::optional<std::string> &param(int index) {
    assert(index >= 1 && index <= static_cast<int>(params.size()) &&
           "bad bind index");
    return params[index - 1];
  }

  /// Prepares the statement again on a connection opened after it was
  /// prepared (the server forgot it); false with the message set.
  bool prepareAgain();

  PostgresConnection &conn;
  std::string name;
  const char *sql;
  /// `sql` with PostgreSQL's parameters ($1).
  std::string text;
  std::vector<std::optional<std::string>> params;
  /// The connection's generation when the server last prepared it.
  int preparedIn;
  PGresult *result = nullptr;
  int row = -1;
};

class PostgresConnection : public Connection {
public:
  PostgresConnection(PGconn *pg, std::string name)
      : Connection(Engine::PostgreSQL, std::move(name)), pg(pg) {}
  ~PostgresConnection() override {
    clearStatements();
    PQfinish(pg);
  }

  PGconn *get() const { return pg; }
  void setMessage(StringRef text) { message = oneLine(text); }
  /// Counts the connections opened again (reconnect()): statements
  /// prepared in an earlier one prepare again.
  int getGeneration() const { return generation; }

  /// Sends one statement through `sendOnce` (PQexec, PQprepare,
  /// PQexecPrepared) and returns its result, or nullptr with the message
  /// set. A dropped connection is reopened first (not inside a transaction
  /// of ours: its work is gone, so its statements fail until the caller ends
  /// it); a statement lost with the connection outside a transaction is sent
  /// once more on the reopened one. (If the server ran it and the connection
  /// dropped before the reply, it runs twice: the narrow window
  /// docs/RecordsDatabase.md names.) `beforeSend`, if given, runs before
  /// each send (statements prepare again on a reopened connection).
  PGresult *send(llvm::function_ref<PGresult *()> sendOnce,
                 llvm::function_ref<bool()> beforeSend = nullptr);

  Error exec(const char *sql) override {
    PGresult *result = send([&] { return PQexec(pg, sql); });
    // A COMMIT or ROLLBACK ends our transaction whether or not it arrived.
    if (StringRef(sql) == "COMMIT" || StringRef(sql) == "ROLLBACK")
      writing = false;
    if (!result)
      return error(StringRef(sql).split('\n').first.trim());
    PQclear(result);
    return Error::success();
  }

  Error beginWriting() override {
    if (Error err = exec("BEGIN"))
      return err;
    writing = true;
    // One lock for every writer of the database ("TSLR").
    return exec("SELECT pg_advisory_xact_lock(1414745170)");
  }

  bool inTransaction() const override {
    return PQtransactionStatus(pg) != PQTRANS_IDLE;
  }

protected:
  std::unique_ptr<PreparedStatement> prepareStatement(const char *sql,
                                                      bool &ok) override {
    int parameters = 0;
    std::string text = toPostgresParameters(sql, parameters);
    std::string statementName = "tessel" + std::to_string(++prepared);
    PGresult *result = send([&] {
      return PQprepare(pg, statementName.c_str(), text.c_str(), 0, nullptr);
    });
    ok = result != nullptr;
    if (!ok)
      return nullptr;
    PQclear(result);
    return std::make_unique<PostgresStatement>(
        *this, statementName, sql, std::move(text), parameters, generation);
  }

  std::string lastMessage() const override { return message; }

private:
  PGconn *pg;
  std::string message;
  int prepared = 0;
  int generation = 0;
  /// Between beginWriting() and the COMMIT or ROLLBACK that ends it.
  bool writing = false;

  /// Opens a dropped connection again (see send()); false, with the
  /// message set, when it cannot.
  bool reopenIfDropped();
  bool lostInTransaction() {
    message = kLostInTransaction;
    return false;
  }
};
} // namespace

/// How long a dropped connection is tried again before statements fail
/// (a server restart takes seconds).
static constexpr double kReconnectSeconds = 60;

bool PostgresConnection::reopenIfDropped() {
  if (PQstatus(pg) != CONNECTION_BAD)
    return true;
  if (writing)
    return lostInTransaction();
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(kReconnectSeconds));
  double wait = 0.1;
  while (true) {
    PQreset(pg);
    if (PQstatus(pg) == CONNECTION_OK)
      break;
    if (Clock::now() >= deadline) {
      setMessage(llvm::formatv("the server closed the connection and it "
                               "could not be opened again in {0} s: {1}",
                               kReconnectSeconds, oneLine(PQerrorMessage(pg)))
                     .str());
      return false;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
    wait = std::min(wait * 2, 5.0);
  }
  ++generation;
  PGresult *result = PQexec(pg, kSessionSettings);
  bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
  if (!ok)
    setMessage(result ? PQresultErrorMessage(result) : PQerrorMessage(pg));
  PQclear(result);
  return ok;
}

PGresult *PostgresConnection::send(llvm::function_ref<PGresult *()> sendOnce,
                                   llvm::function_ref<bool()> beforeSend) {
  for (int attempt = 0;; ++attempt) {
    if (!reopenIfDropped() || (beforeSend && !beforeSend()))
      return nullptr;
    bool wasIdle = PQtransactionStatus(pg) == PQTRANS_IDLE;
    PGresult *result = sendOnce();
    ExecStatusType status = PQresultStatus(result);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
      return result;
    setMessage(result ? PQresultErrorMessage(result) : PQerrorMessage(pg));
    PQclear(result);
    if (PQstatus(pg) != CONNECTION_BAD)
      return nullptr;
    if (!wasIdle) {
      message = kLostInTransaction + (": " + message);
      return nullptr;
    }
    if (attempt > 0)
      return nullptr;
  }
}

bool PostgresStatement::prepareAgain() {
  PGresult *prepared =
      PQprepare(conn.get(), name.c_str(), text.c_str(), 0, nullptr);
  bool ok = PQresultStatus(prepared) == PGRES_COMMAND_OK;
  if (!ok)
    conn.setMessage(prepared ? PQresultErrorMessage(prepared)
                             : PQerrorMessage(conn.get()));
  PQclear(prepared);
  if (ok)
    preparedIn = conn.getGeneration();
  return ok;
}

Expected<bool> PostgresStatement::step() {
  if (!result) {
    std::vector<const char *> values;
    for (const std::optional<std::string> &value : params)
      values.push_back(value ? value->c_str() : nullptr);
    result = conn.send(
        [&] {
          return PQexecPrepared(conn.get(), name.c_str(), values.size(),
                                values.data(), nullptr, nullptr, 0);
        },
        [&] { return preparedIn == conn.getGeneration() || prepareAgain(); });
    if (!result)
      return conn.error(StringRef(sql).split('\n').first.trim());
  }
  return ++row < PQntuples(result);
}

/// Drops the server's notices ("... already exists, skipping").
static void ignoreNotice(void *, const char *) {}

Expected<std::unique_ptr<Connection>>
mlir::tessel::sql::connectPostgres(StringRef url) {
  std::string name = redactPostgresUrl(url);
  std::string dbname = url.str();
  // Later keywords override the URL's; the URL overrides earlier ones.
  const char *keywords[] = {"connect_timeout", "application_name", "dbname",
                            nullptr};
  const char *values[] = {"10", "tessel", dbname.c_str(), nullptr};
  PGconn *pg = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (!pg)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   name + ": cannot connect: out of memory");
  if (PQstatus(pg) != CONNECTION_OK) {
    std::string message = oneLine(PQerrorMessage(pg));
    PQfinish(pg);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   name + ": cannot connect: " + message);
  }
  PQsetNoticeProcessor(pg, ignoreNotice, nullptr);
  auto conn = std::make_unique<PostgresConnection>(pg, name);
  if (Error err = conn->exec(kSessionSettings))
    return std::move(err);
  return std::unique_ptr<Connection>(std::move(conn));
}
