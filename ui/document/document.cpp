// SPDX-License-Identifier: Apache-2.0
#include "ui/document/document.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QUndoCommand>
#include <QUndoStack>

#include "ui/document/text_buffers.h"
#include "ui/jobs/open_job.h"

namespace drasim::ui {

/// Changing the run seed: undo restores the previous override (or the scenario's own seed).
class Document::SetSeedCommand : public QUndoCommand
{
public:
    SetSeedCommand(Document* doc, std::optional<quint64> before, std::optional<quint64> after)
        : m_doc(doc)
        , m_before(before)
        , m_after(after)
    {
        setText(after ? Document::tr("set seed %1").arg(*after) : Document::tr("use the scenario's seed"));
    }
    void undo() override { m_doc->applySeed(m_before); }
    void redo() override { m_doc->applySeed(m_after); }
    // Typing "42" in the seed box is one edit, not two.
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand* other) override
    {
        m_after = static_cast<const SetSeedCommand*>(other)->m_after;
        setText(other->text());
        return true;
    }

private:
    Document* m_doc;
    std::optional<quint64> m_before;
    std::optional<quint64> m_after;
};

Document::Document(QObject* parent)
    : QObject(parent)
{
    m_job = new OpenJob(this);
    m_undo = new QUndoStack(this);
    m_texts = new TextBuffers(m_undo, this);
    connect(m_job, &OpenJob::started, this, &Document::openStarted);
    connect(m_job, &OpenJob::progressChanged, this, &Document::openProgress);
    connect(m_job, &OpenJob::cancelled, this, &Document::openCancelled);
    connect(m_job, &OpenJob::opened, this,
        [this](std::shared_ptr<session::Session> session, const QStringList&) { adopt(std::move(session)); });
}

Document::~Document() = default;

void Document::open(const QStringList& paths)
{
    m_job->start(paths, m_gates);
}

void Document::reload()
{
    const QStringList current = paths();
    if (!current.isEmpty())
        open(current);
}

void Document::cancelOpen()
{
    m_job->cancel();
}

bool Document::isOpening() const
{
    return m_job->isRunning();
}

QStringList Document::paths() const
{
    QStringList out;
    if (m_session)
        for (const auto& input : m_session->inputs())
            out << QString::fromStdString(input.path);
    return out;
}

bool Document::isScenario() const
{
    // By the input's detected kind: a scenario with errors is still a scenario, not manifests.
    return m_session && m_session->inputs().size() == 1
        && m_session->inputs().front().kind == session::InputKind::Scenario;
}

std::shared_ptr<const api::ObjectSet> Document::objects() const
{
    if (!m_session)
        return std::make_shared<const api::ObjectSet>();
    // Aliases the session: the objects live exactly as long as someone shows them.
    return std::shared_ptr<const api::ObjectSet>(m_session, &m_session->objects());
}

std::shared_ptr<const sim::PreparedScenario> Document::prepared() const
{
    return m_session ? m_session->prepared() : nullptr;
}

const std::vector<Diagnostic>& Document::diagnostics() const
{
    static const std::vector<Diagnostic> kNone;
    return m_session ? m_session->diagnostics().all() : kNone;
}

QStringList Document::files() const
{
    QStringList out;
    for (const QString& p : paths()) {
        if (!QFileInfo(p).isDir()) {
            out << p;
            continue;
        }
        // The loader's choice: *.yaml, *.yml and *.json anywhere below, sorted by path.
        QStringList inside;
        QDirIterator it(p, { QStringLiteral("*.yaml"), QStringLiteral("*.yml"), QStringLiteral("*.json") },
            QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            inside << it.next();
        inside.sort();
        out << inside;
    }
    return out;
}

QString Document::displayName() const
{
    QStringList names;
    for (const auto& p : paths())
        names << QFileInfo(p).fileName();
    return names.join(QStringLiteral(", "));
}

QString Document::setManifestGates(api::KubernetesVersion version, const QString& gates)
{
    api::FeatureGates chosen(version);
    if (const std::string error = chosen.parse(gates.toStdString()); !error.empty())
        return QString::fromStdString(error);
    if (chosen == m_gates)
        return {};
    m_gates = chosen;
    Q_EMIT manifestGatesChanged();
    if (!isScenario()) // a scenario's own version and gates decide for it
        reload();
    return {};
}

api::FeatureGates Document::featureGates() const
{
    if (m_session && m_session->scenario())
        return m_session->scenario()->featureGates;
    return m_session ? m_session->featureGates() : m_gates;
}

void Document::setSeedOverride(std::optional<quint64> seed)
{
    if (seed != m_seed)
        m_undo->push(new SetSeedCommand(this, m_seed, seed));
}

void Document::keepSessionUntilExit()
{
    // Deliberately never freed: the operating system takes the memory back at exit at once.
    static auto* kept = new std::vector<std::shared_ptr<session::Session>>();
    if (m_session)
        kept->push_back(m_session);
}

void Document::applySeed(std::optional<quint64> seed)
{
    m_seed = seed;
    Q_EMIT seedOverrideChanged();
}

void Document::adopt(std::shared_ptr<session::Session> session)
{
    // A new document: edits of the previous one cannot be undone into it.
    m_undo->clear();
    m_texts->documentReopened();
    m_seed.reset();
    std::shared_ptr<session::Session> previous = std::move(m_session);
    m_session = std::move(session);
    Q_EMIT seedOverrideChanged();
    Q_EMIT opened();
    // The pages have let go of the previous session (they re-read the document on opened()).
    // Freeing a large cluster's objects takes a good part of a second: a worker does it while
    // the window shows the new document.
    if (previous)
        m_release.run([previous = std::move(previous)]() mutable { previous.reset(); });
}

} // namespace drasim::ui
