// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace drasim::storage {

/// Any SQLite failure. Carries SQLite's message and the file it concerns.
class StorageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

class Statement;

/// An open SQLite database (RAII), with foreign keys on and full synchronous writes; openSchema
/// (schema.h) turns WAL on. A crash leaves the state before or after the last committed transaction.
class Database
{
public:
    /// Opens or creates the file. Throws StorageError with the path when it is not a database.
    explicit Database(const std::string& path);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    void exec(std::string_view sql);
    Statement prepare(std::string_view sql);
    int64_t lastInsertId() const;
    /// Rows changed by the last INSERT/UPDATE/DELETE.
    int changes() const;
    int userVersion();
    void setUserVersion(int version);
    const std::string& path() const { return m_path; }
    sqlite3* handle() const { return m_db; }

private:
    std::string m_path;
    sqlite3* m_db = nullptr;
};

/// A prepared statement. bind() indices are 1-based, column() indices 0-based.
class Statement
{
public:
    Statement(Database& db, sqlite3_stmt* stmt);
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, int64_t value);
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text);
    /// Bytes kept exactly (any encoding, NUL bytes included); read back with columnText.
    Statement& bindBlob(int index, std::string_view bytes);
    Statement& bindNull(int index);
    /// Advances; returns true while a row is available.
    bool step();
    /// Runs a statement that returns no rows.
    void run();
    void reset();

    int64_t columnInt(int col) const;
    double columnDouble(int col) const;
    std::string columnText(int col) const;
    bool columnIsNull(int col) const;

private:
    Database* m_db;
    sqlite3_stmt* m_stmt;
};

/// BEGIN IMMEDIATE on construction; ROLLBACK on destruction unless commit() was called. Every write
/// of the store goes through one, so bad input or a crash never leaves half a run behind.
class Transaction
{
public:
    explicit Transaction(Database& db);
    ~Transaction();
    void commit();

private:
    Database& m_db;
    bool m_done = false;
};

} // namespace drasim::storage
