// SPDX-License-Identifier: Apache-2.0
#include "ui/jobs/validation_job.h"

#include "core/session/manifest_check.h"

namespace drasim::ui {

ValidationJob::ValidationJob(QObject* parent)
    : QObject(parent)
{ }

ValidationJob::~ValidationJob() = default;

void ValidationJob::validate(const QString& text, const QString& fileName)
{
    m_runs.start(
        QStringLiteral("drasim-validate"),
        [bytes = text.toStdString(), fileName](const Runs::Run&) {
            auto result = session::validateText(bytes, fileName.toStdString());
            auto outcome = std::make_shared<ValidationOutcome>();
            outcome->fileName = fileName;
            outcome->diagnostics = result.diagnostics.all();
            outcome->objects = std::make_shared<const api::ObjectSet>(std::move(result.objects));
            return std::shared_ptr<const ValidationOutcome>(std::move(outcome));
        },
        [](ValidationJob* job, const std::shared_ptr<const ValidationOutcome>& outcome) {
            Q_EMIT job->validated(outcome);
        });
}

} // namespace drasim::ui
