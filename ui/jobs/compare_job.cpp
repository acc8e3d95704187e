// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/compare_job.h"

#include <QMetaObject>
#include <QPointer>

#include "core/storage/database.h"

namespace drasim::ui {

CompareJob::CompareJob(QObject* parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1); // one store reader at a time; requests queue in order
}

CompareJob::~CompareJob()
{
    m_pool.waitForDone();
}

void CompareJob::listRuns(const QString& storePath)
{
    const quint64 generation = ++m_listGeneration;
    QPointer<CompareJob> self(this);
    const std::string path = storePath.toStdString();
    m_pool.start([self, generation, path]() {
        auto runs = std::make_shared<RunList>();
        QString error;
        if (path.empty()) {
            error = tr("no run store");
        } else {
            try {
                storage::RunStore store(path);
                *runs = store.runs();
            } catch (const std::exception& e) {
                error = QString::fromStdString(e.what());
            }
        }
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, runs, error]() {
                if (self && self->m_listGeneration == generation)
                    Q_EMIT self->runsListed(runs, error);
            },
            Qt::QueuedConnection);
    });
}

void CompareJob::compare(const QString& storePath, qint64 baseline, qint64 other)
{
    const quint64 generation = ++m_compareGeneration;
    QPointer<CompareJob> self(this);
    const std::string path = storePath.toStdString();
    m_pool.start([self, generation, path, baseline, other]() {
        std::shared_ptr<const compare::Comparison> result;
        QString error;
        try {
            storage::RunStore store(path);
            const auto runs = compare::loadRuns(store, { baseline, other });
            result = std::make_shared<const compare::Comparison>(compare::compareRuns(runs));
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, result, error]() {
                if (self && self->m_compareGeneration == generation)
                    Q_EMIT self->compared(result, error);
            },
            Qt::QueuedConnection);
    });
}

} // namespace drasim::ui
