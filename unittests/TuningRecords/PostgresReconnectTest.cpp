//===- PostgresReconnectTest.cpp - A dropped PostgreSQL connection --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "RecordsTestUtils.h"

#include "tessel/Tuning/Records/MeasurementQueue.h"

#include "Postgres.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::records_test;

namespace {

/// A schema of the test server whose connections carry their own
/// application name, so that a test can have the server drop them (as a
/// restart or an administrator would) without touching other tests.
class PostgresReconnectTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!schema.available())
      GTEST_SKIP() << schema.whyUnavailable();
    static int counter = 0;
    application = "tessel_victim_" + std::to_string(getpid()) + "_" +
                  std::to_string(counter++);
  }

  std::string url() const {
    return schema.url() + "&application_name=" + application;
  }

  /// How many of the connections were dropped.
  int64_t dropConnections() {
    return std::stoll(queryPostgresText(
        postgres_test::getServer().url,
        ("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
         "WHERE application_name = '" +
         application + "'")
            .c_str()));
  }

  postgres_test::Schema schema;
  std::string application;
};

/// The server drops an idle connection: the next statement reopens it,
/// prepares again what the server forgot, and runs.
TEST_F(PostgresReconnectTest, StatementsRunOnAfterTheServerDropsTheConnection) {
  auto db =
      RecordsDatabase::open(url(), RecordsDatabase::OpenMode::CreateOrOpen);
  ASSERT_TRUE(bool(db)) << llvm::toString(db.takeError());
  MeasurementQueue queue(**db);
  ASSERT_FALSE(
      bool(queue.registerWorker({"w1", "sim:h100-sxm", "sim:h100-sxm", "{}"})));
  llvm::Expected<std::vector<WorkerInfo>> workers =
      queue.getWorkers("sim:h100-sxm");
  ASSERT_TRUE(bool(workers)) << llvm::toString(workers.takeError());
  EXPECT_EQ(workers->size(), 1u);

  EXPECT_EQ(dropConnections(), 1);
  // Both statements were prepared on the dropped connection.
  llvm::Error registered =
      queue.registerWorker({"w2", "sim:h100-sxm", "sim:h100-sxm", "{}"});
  ASSERT_FALSE(bool(registered)) << llvm::toString(std::move(registered));
  workers = queue.getWorkers("sim:h100-sxm");
  ASSERT_TRUE(bool(workers)) << llvm::toString(workers.takeError());
  EXPECT_EQ(workers->size(), 2u);
  EXPECT_EQ(dropConnections(), 1);
}

/// Dropped inside a transaction, the transaction's work is lost: its next
/// statement and its COMMIT fail, saying so, and nothing of it is written;
/// the statements after it run on a reopened connection.
TEST_F(PostgresReconnectTest, ATransactionLostWithItsConnectionFails) {
  llvm::Expected<std::unique_ptr<sql::Connection>> conn =
      sql::connectPostgres(url());
  ASSERT_TRUE(bool(conn)) << llvm::toString(conn.takeError());
  sql::Connection &c = **conn;
  ASSERT_FALSE(bool(c.exec("CREATE TABLE t (x integer)")));
  static const char *const insert = "INSERT INTO t (x) VALUES (?1)";
  auto run = [&](int64_t x) -> llvm::Error {
    llvm::Expected<sql::Statement> stmt = c.prepare(insert);
    if (!stmt)
      return stmt.takeError();
    stmt->bind(1, x);
    return stmt->run();
  };
  ASSERT_FALSE(bool(run(1)));

  {
    llvm::Expected<sql::Transaction> transaction = sql::Transaction::begin(c);
    ASSERT_TRUE(bool(transaction)) << llvm::toString(transaction.takeError());
    ASSERT_FALSE(bool(run(2)));
    EXPECT_EQ(dropConnections(), 1);
    llvm::Error lost = run(3);
    ASSERT_TRUE(bool(lost));
    std::string message = llvm::toString(std::move(lost));
    EXPECT_NE(message.find(": INSERT INTO t (x) VALUES (?1): the server "
                           "closed the connection inside a transaction; its "
                           "work is lost"),
              std::string::npos)
        << message;
    llvm::Error committed = transaction->commit();
    EXPECT_TRUE(bool(committed));
    llvm::consumeError(std::move(committed));
  }

  ASSERT_FALSE(bool(run(4)));
  llvm::Expected<int64_t> rows = c.queryInt("SELECT count(*) FROM t");
  ASSERT_TRUE(bool(rows)) << llvm::toString(rows.takeError());
  EXPECT_EQ(*rows, 2); // 1 and 4: the transaction's 2 was lost.
  llvm::Expected<int64_t> sum = c.queryInt("SELECT sum(x) FROM t");
  ASSERT_TRUE(bool(sum)) << llvm::toString(sum.takeError());
  EXPECT_EQ(*sum, 5);
}

} // namespace
