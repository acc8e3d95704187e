// SPDX-License-Identifier: Apache-2.0
#include "core/storage/database.h"

#include <sqlite3.h>

namespace drasim::storage {

namespace {
[[noreturn]] void raise(sqlite3* db, const std::string& path, const std::string& what)
{
    throw StorageError(path + ": " + what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}
} // namespace

Database::Database(const std::string& path)
    : m_path(path)
{
    int rc = sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        m_db = nullptr;
        throw StorageError(path + ": cannot open database: " + msg);
    }
    sqlite3_busy_timeout(m_db, 5000);
    try {
        // A file that is not a database fails here ("file is not a database"), before anything
        // is written to it. WAL is turned on by openSchema (schema.h), once the version is known.
        exec("SELECT count(*) FROM sqlite_master");
        exec("PRAGMA synchronous=FULL");
        exec("PRAGMA foreign_keys=ON");
    } catch (...) {
        sqlite3_close(m_db);
        m_db = nullptr;
        throw;
    }
}

Database::~Database()
{
    if (m_db)
        sqlite3_close(m_db);
}

void Database::exec(std::string_view sql)
{
    std::string text(sql);
    char* err = nullptr;
    if (sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        throw StorageError(m_path + ": " + msg);
    }
}

Statement Database::prepare(std::string_view sql)
{
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.data(), int(sql.size()), &stmt, nullptr) != SQLITE_OK)
        raise(m_db, m_path, "cannot prepare statement");
    return Statement(*this, stmt);
}

int64_t Database::lastInsertId() const
{
    return sqlite3_last_insert_rowid(m_db);
}

int Database::changes() const
{
    return sqlite3_changes(m_db);
}

int Database::userVersion()
{
    auto st = prepare("PRAGMA user_version");
    return st.step() ? int(st.columnInt(0)) : 0;
}

void Database::setUserVersion(int version)
{
    exec("PRAGMA user_version=" + std::to_string(version));
}

Statement::Statement(Database& db, sqlite3_stmt* stmt)
    : m_db(&db)
    , m_stmt(stmt)
{ }

Statement::~Statement()
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

Statement::Statement(Statement&& other) noexcept
    : m_db(other.m_db)
    , m_stmt(other.m_stmt)
{
    other.m_stmt = nullptr;
}

Statement& Statement::bind(int index, int64_t value)
{
    if (sqlite3_bind_int64(m_stmt, index, value) != SQLITE_OK)
        raise(m_db->handle(), m_db->path(), "cannot bind");
    return *this;
}

Statement& Statement::bind(int index, double value)
{
    if (sqlite3_bind_double(m_stmt, index, value) != SQLITE_OK)
        raise(m_db->handle(), m_db->path(), "cannot bind");
    return *this;
}

Statement& Statement::bind(int index, std::string_view text)
{
    if (sqlite3_bind_text(m_stmt, index, text.data(), int(text.size()), SQLITE_TRANSIENT) != SQLITE_OK)
        raise(m_db->handle(), m_db->path(), "cannot bind");
    return *this;
}

Statement& Statement::bindBlob(int index, std::string_view bytes)
{
    if (sqlite3_bind_blob64(m_stmt, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT) != SQLITE_OK)
        raise(m_db->handle(), m_db->path(), "cannot bind");
    return *this;
}

Statement& Statement::bindNull(int index)
{
    if (sqlite3_bind_null(m_stmt, index) != SQLITE_OK)
        raise(m_db->handle(), m_db->path(), "cannot bind");
    return *this;
}

bool Statement::step()
{
    int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    raise(m_db->handle(), m_db->path(), "statement failed");
}

void Statement::run()
{
    while (step()) { }
    reset();
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

int64_t Statement::columnInt(int col) const
{
    return sqlite3_column_int64(m_stmt, col);
}
double Statement::columnDouble(int col) const
{
    return sqlite3_column_double(m_stmt, col);
}
bool Statement::columnIsNull(int col) const
{
    return sqlite3_column_type(m_stmt, col) == SQLITE_NULL;
}

std::string Statement::columnText(int col) const
{
    // A blob is read as a blob: sqlite3_column_text would convert it and stop at nothing, but
    // asking for the bytes this way keeps them exactly for both kinds.
    if (sqlite3_column_type(m_stmt, col) == SQLITE_BLOB) {
        const void* b = sqlite3_column_blob(m_stmt, col);
        return b ? std::string(static_cast<const char*>(b), size_t(sqlite3_column_bytes(m_stmt, col)))
                 : std::string();
    }
    const unsigned char* t = sqlite3_column_text(m_stmt, col);
    return t ? std::string(reinterpret_cast<const char*>(t), size_t(sqlite3_column_bytes(m_stmt, col)))
             : std::string();
}

Transaction::Transaction(Database& db)
    : m_db(db)
{
    m_db.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction()
{
    if (!m_done) {
        try {
            m_db.exec("ROLLBACK");
        } catch (...) {
            // Nothing sensible to do in a destructor; SQLite rolls back on close anyway.
        }
    }
}

void Transaction::commit()
{
    m_db.exec("COMMIT");
    m_done = true;
}

} // namespace drasim::storage
