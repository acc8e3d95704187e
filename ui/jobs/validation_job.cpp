// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/validation_job.h"

#include <QMetaObject>
#include <QPointer>

#include "core/session/manifest_check.h"

namespace drasim::ui {

ValidationJob::ValidationJob(QObject* parent)
    : QObject(parent)
{ }

ValidationJob::~ValidationJob()
{
    for (auto& future : m_inFlight)
        future.waitForFinished();
}

bool ValidationJob::isRunning() const
{
    for (const auto& f : m_inFlight)
        if (!f.isFinished())
            return true;
    return false;
}

void ValidationJob::validate(const QString& text, const QString& fileName)
{
    const quint64 generation = ++m_generation;
    QPointer<ValidationJob> self(this);
    m_inFlight.removeIf([](const QFuture<void>& f) { return f.isFinished(); });
    const std::string bytes = text.toStdString();
    m_inFlight << m_pool.run([self, generation, bytes, fileName]() {
        auto result = session::validateText(bytes, fileName.toStdString());
        auto outcome = std::make_shared<ValidationOutcome>();
        outcome->fileName = fileName;
        outcome->diagnostics = result.diagnostics.all();
        outcome->objects = std::make_shared<const api::ObjectSet>(std::move(result.objects));
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, outcome]() {
                if (self && self->m_generation == generation)
                    Q_EMIT self->validated(outcome);
            },
            Qt::QueuedConnection);
    });
}

} // namespace drasim::ui
