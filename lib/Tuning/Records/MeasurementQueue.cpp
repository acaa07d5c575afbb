//===- MeasurementQueue.cpp - Measurements handed to workers --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Records/MeasurementQueue.h"

#include "SqlConnection.h"

#include <chrono>

using namespace mlir;
using namespace mlir::tessel;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

static double unixNow() {
  return std::chrono::duration<double>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Error MeasurementQueue::enqueue(StringRef batch, StringRef target,
                                ArrayRef<QueueRequest> requests) {
  sql::Connection &conn = *db.conn;
  Expected<sql::Transaction> transaction = sql::Transaction::begin(conn);
  if (!transaction)
    return transaction.takeError();
  double now = unixNow();
  for (auto [position, request] : llvm::enumerate(requests)) {
    Expected<sql::Statement> insert = conn.prepare(
        "INSERT INTO queue_items (batch, position, target, candidate, "
        "noise_seed, state, enqueued_at, tuner_seen_at) VALUES (?1, ?2, ?3, "
        "?4, ?5, 'pending', ?6, ?6)");
    if (!insert)
      return insert.takeError();
    insert->bind(1, batch)
        .bind(2, static_cast<int64_t>(position))
        .bind(3, target)
        .bind(4, StringRef(request.candidate))
        .bind(5, static_cast<int64_t>(request.noiseSeed))
        .bind(6, now);
    if (Error err = insert->run())
      return err;
  }
  return transaction->commit();
}

Expected<std::vector<FinishedItem>>
MeasurementQueue::getFinished(StringRef batch) {
  Expected<sql::Statement> stmt = db.conn->prepare(
      "SELECT position, result FROM queue_items WHERE batch = ?1 AND "
      "state = 'done' ORDER BY position");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, batch);
  std::vector<FinishedItem> items;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return items;
    items.push_back({stmt->getInt(0), stmt->getText(1)});
  }
}

Expected<int64_t> MeasurementQueue::countUnfinished(StringRef batch) {
  Expected<sql::Statement> stmt = db.conn->prepare(
      "SELECT count(*) FROM queue_items WHERE batch = ?1 AND state <> 'done'");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, batch);
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  return stmt->getInt(0);
}

Error MeasurementQueue::touchBatch(StringRef batch) {
  Expected<sql::Statement> stmt = db.conn->prepare(
      "UPDATE queue_items SET tuner_seen_at = ?1 WHERE batch = ?2");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, unixNow()).bind(2, batch);
  return stmt->run();
}

Error MeasurementQueue::removeBatch(StringRef batch) {
  Expected<sql::Statement> stmt =
      db.conn->prepare("DELETE FROM queue_items WHERE batch = ?1");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, batch);
  return stmt->run();
}

Error MeasurementQueue::registerWorker(const WorkerInfo &info) {
  Expected<sql::Statement> stmt = db.conn->prepare(
      "INSERT INTO queue_workers (name, target, measurer, device_json, "
      "started_at, seen_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5) "
      "ON CONFLICT (name) DO UPDATE SET target = excluded.target, "
      "measurer = excluded.measurer, device_json = excluded.device_json, "
      "seen_at = excluded.seen_at");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, StringRef(info.name))
      .bind(2, StringRef(info.target))
      .bind(3, StringRef(info.measurer))
      .bind(4, StringRef(info.deviceJson))
      .bind(5, unixNow());
  return stmt->run();
}

Expected<std::vector<WorkerInfo>>
MeasurementQueue::getWorkers(StringRef target) {
  Expected<sql::Statement> stmt = db.conn->prepare(
      "SELECT name, target, measurer, device_json FROM queue_workers "
      "WHERE target = ?1 ORDER BY started_at, name");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, target);
  std::vector<WorkerInfo> workers;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return workers;
    workers.push_back({stmt->getText(0), stmt->getText(1), stmt->getText(2),
                       stmt->getText(3)});
  }
}

Expected<std::optional<std::string>>
MeasurementQueue::getCandidate(StringRef batch, int64_t position) {
  Expected<sql::Statement> stmt = db.conn->prepare(
      "SELECT candidate FROM queue_items WHERE batch = ?1 AND position = ?2");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, batch).bind(2, position);
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return std::nullopt;
  return stmt->getText(0);
}

Expected<std::optional<ClaimedItem>>
MeasurementQueue::claim(StringRef worker, StringRef target, double leaseSeconds,
                        int64_t maxAttempts, StringRef abandonedResult,
                        double orphanSeconds) {
  sql::Connection &conn = *db.conn;
  double now = unixNow();
  {
    // Batches whose tuner has given no sign of life for orphanSeconds: it
    // died; nobody will read their results. (A claimed item stays until
    // its worker finishes it.)
    Expected<sql::Statement> orphans = conn.prepare(
        "DELETE FROM queue_items WHERE target = ?1 AND state <> 'claimed' "
        "AND tuner_seen_at < ?2");
    if (!orphans)
      return orphans.takeError();
    orphans->bind(1, target).bind(2, now - orphanSeconds);
    if (Error err = orphans->run())
      return std::move(err);
  }
  {
    Expected<sql::Statement> abandon = conn.prepare(
        "UPDATE queue_items SET state = 'done', result = ?1, "
        "finished_at = ?2 WHERE target = ?3 AND state = 'claimed' AND "
        "lease_until < ?2 AND attempts >= ?4");
    if (!abandon)
      return abandon.takeError();
    abandon->bind(1, abandonedResult)
        .bind(2, now)
        .bind(3, target)
        .bind(4, maxAttempts);
    if (Error err = abandon->run())
      return std::move(err);
  }
  // One statement: the row is chosen and claimed atomically. PostgreSQL
  // skips the rows other workers are claiming at this moment; SQLite runs
  // writers one at a time.
  const char *postgresSql =
      "UPDATE queue_items SET state = 'claimed', worker = ?1, "
      "lease_until = ?2, attempts = attempts + 1 WHERE id = (SELECT id FROM "
      "queue_items WHERE target = ?3 AND (state = 'pending' OR "
      "(state = 'claimed' AND lease_until < ?4)) ORDER BY id LIMIT 1 "
      "FOR UPDATE SKIP LOCKED) RETURNING id, candidate, noise_seed, attempts, "
      "batch, position";
  const char *sqliteSql =
      "UPDATE queue_items SET state = 'claimed', worker = ?1, "
      "lease_until = ?2, attempts = attempts + 1 WHERE id = (SELECT id FROM "
      "queue_items WHERE target = ?3 AND (state = 'pending' OR "
      "(state = 'claimed' AND lease_until < ?4)) ORDER BY id LIMIT 1) "
      "RETURNING id, candidate, noise_seed, attempts, batch, position";
  Expected<sql::Statement> stmt = conn.prepare(
      conn.getEngine() == sql::Engine::PostgreSQL ? postgresSql : sqliteSql);
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, worker)
      .bind(2, now + leaseSeconds)
      .bind(3, target)
      .bind(4, now);
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return std::nullopt;
  ClaimedItem item;
  item.id = stmt->getInt(0);
  item.candidate = stmt->getText(1);
  item.batch = stmt->getText(4);
  item.position = stmt->getInt(5);
  item.noiseSeed = static_cast<uint64_t>(stmt->getInt(2));
  item.attempt = stmt->getInt(3);
  if (Error err = stmt->run())
    return std::move(err);
  return item;
}

Expected<bool> MeasurementQueue::renew(const ClaimedItem &item,
                                       StringRef worker, double leaseSeconds) {
  Expected<sql::Statement> stmt = db.conn->prepare(
      "UPDATE queue_items SET lease_until = ?1 WHERE id = ?2 AND "
      "state = 'claimed' AND worker = ?3 AND attempts = ?4 RETURNING id");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, unixNow() + leaseSeconds)
      .bind(2, item.id)
      .bind(3, worker)
      .bind(4, item.attempt);
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  bool renewed = *row;
  if (llvm::Error err = stmt->run())
    return std::move(err);
  return renewed;
}

Expected<bool> MeasurementQueue::finish(const ClaimedItem &item,
                                        StringRef worker, StringRef result) {
  Expected<sql::Statement> stmt = db.conn->prepare(
      "UPDATE queue_items SET state = 'done', result = ?1, finished_at = ?2 "
      "WHERE id = ?3 AND state = 'claimed' AND worker = ?4 AND "
      "attempts = ?5 RETURNING id");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, result)
      .bind(2, unixNow())
      .bind(3, item.id)
      .bind(4, worker)
      .bind(5, item.attempt);
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  bool finished = *row;
  if (Error err = stmt->run())
    return std::move(err);
  return finished;
}

Expected<std::vector<std::string>> MeasurementQueue::getPendingTargets() {
  Expected<sql::Statement> stmt = db.conn->prepare(
      "SELECT DISTINCT target FROM queue_items WHERE state = 'pending' "
      "ORDER BY target");
  if (!stmt)
    return stmt.takeError();
  std::vector<std::string> targets;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return targets;
    targets.push_back(stmt->getText(0));
  }
}
