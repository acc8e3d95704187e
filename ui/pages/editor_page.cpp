// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/editor_page.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTextDocument>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/document/text_buffers.h"
#include "ui/jobs/validation_job.h"
#include "ui/models/core_text.h"
#include "ui/models/diagnostics_model.h"
#include "ui/widgets/cel_selector_box.h"
#include "ui/widgets/code_editor.h"
#include "ui/widgets/yaml_highlighter.h"

namespace drasim::ui {

EditorPage::EditorPage(Document* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    m_job = new ValidationJob(this);
    m_problems = new DiagnosticsModel(this);
    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kCheckDelayMs);

    m_files = new QComboBox(this);
    m_files->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_save = new QPushButton(tr("Save"), this);
    m_save->setToolTip(tr("Save this file (Ctrl+S) and reopen the document"));
    m_status = new QLabel(this);
    auto* bar = new QHBoxLayout();
    bar->addWidget(new QLabel(tr("File"), this));
    bar->addWidget(m_files, 1);
    bar->addWidget(m_save);
    bar->addWidget(m_status, 1);

    m_editor = new CodeEditor(this);
    m_editor->setUndoStack(document->undoStack());
    m_editor->setPlaceholderText(tr("Open manifests or a scenario to edit them here."));
    m_problemsView = new QTableView(this);
    m_problemsView->setModel(m_problems);
    m_problemsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_problemsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_problemsView->verticalHeader()->setVisible(false);
    m_problemsView->setWordWrap(false);
    // What is wrong reads first; the object and field path follow.
    m_problemsView->horizontalHeader()->moveSection(
        DiagnosticsModel::MessageColumn, DiagnosticsModel::LocationColumn + 1);
    // The message takes the room left; the stretched last section would be the field path.
    m_problemsView->horizontalHeader()->setSectionResizeMode(
        DiagnosticsModel::MessageColumn, QHeaderView::Stretch);

    auto* textAndProblems = new QSplitter(Qt::Vertical, this);
    textAndProblems->addWidget(m_editor);
    textAndProblems->addWidget(m_problemsView);
    textAndProblems->setStretchFactor(0, 4);
    textAndProblems->setStretchFactor(1, 1);
    m_celBox = new CelSelectorBox(this);
    auto* sides = new QSplitter(Qt::Horizontal, this);
    sides->addWidget(textAndProblems);
    sides->addWidget(m_celBox);
    sides->setStretchFactor(0, 3);
    sides->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(sides, 1);

    connect(
        m_files, &QComboBox::activated, this, [this](int i) { openFile(m_files->itemData(i).toString()); });
    connect(m_save, &QPushButton::clicked, this, &EditorPage::save);
    // Ctrl+S is the window's File › Save, which saves this page's file: a second binding here
    // would make the key ambiguous and fire neither.
    connect(m_debounce, &QTimer::timeout, this, [this]() {
        m_status->setText(tr("Checking…"));
        m_job->validate(m_editor->toPlainText(), m_path);
    });
    connect(m_job, &ValidationJob::validated, this, &EditorPage::onValidated);
    connect(
        m_problemsView, &QTableView::activated, this, [this](const QModelIndex& i) { goToProblem(i.row()); });
    connect(
        m_problemsView, &QTableView::clicked, this, [this](const QModelIndex& i) { goToProblem(i.row()); });
    connect(document, &Document::opened, this, &EditorPage::onDocumentOpened);
    connect(document->textBuffers(), &TextBuffers::modificationChanged, this, [this]() { updateTitle(); });
    m_save->setEnabled(false);
}

EditorPage::~EditorPage() = default;

void EditorPage::onDocumentOpened()
{
    fillFiles();
    const QStringList files = m_document->files();
    if (!files.contains(m_path))
        m_path.clear();
    openFile(m_path.isEmpty() && !files.isEmpty() ? files.front() : m_path);
    m_celBox->setObjects(m_document->objects());
}

void EditorPage::fillFiles()
{
    m_files->clear();
    for (const QString& f : m_document->files())
        m_files->addItem(QFileInfo(f).fileName(), f);
    updateTitle();
}

void EditorPage::updateTitle()
{
    for (int i = 0; i < m_files->count(); ++i) {
        const QString path = m_files->itemData(i).toString();
        m_files->setItemText(i,
            QFileInfo(path).fileName()
                + (m_document->textBuffers()->isModified(path) ? QStringLiteral(" *") : QString()));
        m_files->setItemData(i, path, Qt::ToolTipRole);
    }
    m_save->setEnabled(!m_path.isEmpty() && m_document->textBuffers()->isModified(m_path));
}

void EditorPage::followPalette()
{
    if (auto* highlighter = m_editor ? m_editor->document()->findChild<YamlHighlighter*>() : nullptr)
        highlighter->setDark(palette().color(QPalette::Base).lightness() < 128);
}

void EditorPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        followPalette();
    QWidget::changeEvent(event);
}

bool EditorPage::openFile(const QString& path)
{
    if (path.isEmpty() || !m_document->files().contains(path))
        return false;
    QString error;
    QTextDocument* text = m_document->textBuffers()->buffer(path, &error);
    if (m_editor->document() != text) {
        if (m_editor->document())
            disconnect(m_editor->document(), nullptr, this, nullptr);
        if (!text->findChild<YamlHighlighter*>())
            new YamlHighlighter(text);
        m_editor->setDocument(text);
        followPalette();
        connect(text, &QTextDocument::contentsChanged, this, &EditorPage::scheduleCheck);
    }
    m_path = path;
    m_files->setCurrentIndex(m_files->findData(path));
    m_editor->setProblems({});
    m_problems->setDiagnostics({});
    if (!error.isEmpty())
        m_status->setText(error);
    updateTitle();
    // A file just shown is checked at once.
    m_showFirstProblem = true;
    m_job->validate(text->toPlainText(), m_path);
    m_status->setText(tr("Checking…"));
    return true;
}

void EditorPage::scheduleCheck()
{
    m_debounce->start();
}

void EditorPage::onValidated(std::shared_ptr<const ValidationOutcome> outcome)
{
    if (outcome->fileName != m_path || m_debounce->isActive())
        return; // another file, or newer typing is about to be checked
    m_problems->setDiagnostics(outcome->diagnostics);
    m_problemsView->resizeColumnsToContents();
    std::vector<CodeEditor::Problem> marks;
    const std::string file = m_path.toStdString();
    for (const auto& d : outcome->diagnostics)
        if (d.pos.file == file && d.pos.line > 0)
            marks.push_back({ d.pos.line, d.pos.column, d.severity == Severity::Error,
                QString::fromStdString(d.message) });
    m_editor->setProblems(std::move(marks));
    // A file just opened shows its first problem; while typing, the cursor stays where it is.
    if (m_showFirstProblem && !m_editor->problems().empty())
        m_editor->goTo(m_editor->problems().front().line, m_editor->problems().front().column);
    m_showFirstProblem = false;
    const int errors = m_problems->errorCount(), warnings = m_problems->warningCount();
    if (errors == 0 && warnings == 0)
        m_status->setText(tr("No problems: %1")
                              .arg(countOf(qint64(outcome->objects->size()), tr("object"), tr("objects"))));
    else
        m_status->setText(countOf(errors, tr("error"), tr("errors")) + QStringLiteral(", ")
            + countOf(warnings, tr("warning"), tr("warnings")));
    Q_EMIT checked();
}

QString EditorPage::statusText() const
{
    return m_status->text();
}

void EditorPage::goToProblem(int row)
{
    const Diagnostic* d = m_problems->diagnosticAt(row);
    if (d && d->pos.line > 0 && d->pos.file == m_path.toStdString())
        m_editor->goTo(d->pos.line, d->pos.column);
}

bool EditorPage::save()
{
    if (m_path.isEmpty())
        return false;
    QString error;
    if (!m_document->textBuffers()->save(m_path, &error)) {
        m_status->setText(tr("Not saved: %1").arg(error));
        return false;
    }
    m_status->setText(tr("Saved %1").arg(QFileInfo(m_path).fileName()));
    updateTitle();
    m_document->reload();
    return true;
}

} // namespace drasim::ui
