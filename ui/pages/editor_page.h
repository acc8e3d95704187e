// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QString>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QTimer;

namespace drasim::ui {

class CelSelectorBox;
class CodeEditor;
class DiagnosticsModel;
class Document;
class ValidationJob;
struct ValidationOutcome;

/// The manifest editor: one file of the document at a time, YAML highlighted, checked as you
/// type (after a pause, off the UI thread, with the checks of `drasim validate`), problems listed
/// with their file:line:column and marked on their line; a problem opens its line. Text edits go
/// on the document's undo stack; saving writes a new file and renames it over the old one, then
/// the document reopens so every view shows what was saved.
class EditorPage : public QWidget
{
    Q_OBJECT
public:
    explicit EditorPage(Document* document, QWidget* parent = nullptr);
    ~EditorPage() override;

    /// Shows one of the document's files (false when it is not one of them).
    bool openFile(const QString& path);
    QString currentFile() const { return m_path; }
    /// Saves the current file (write, then rename) and reopens the document. False with the
    /// reason shown on the page when it cannot be written.
    bool save();
    /// Opens the problem's line in the editor.
    void goToProblem(int row);

    CodeEditor* editor() const { return m_editor; }
    DiagnosticsModel* problemsModel() const { return m_problems; }
    QTableView* problemsView() const { return m_problemsView; }
    ValidationJob* validationJob() const { return m_job; }
    CelSelectorBox* selectorBox() const { return m_celBox; }
    QString statusText() const;
    /// Milliseconds of quiet typing before the text is checked.
    static constexpr int kCheckDelayMs = 300;

Q_SIGNALS:
    /// The current file's text was checked; problemsModel() and the editor's marks are up to date.
    void checked();

protected:
    /// A new palette (View › Theme): the YAML colours of the file shown follow it.
    void changeEvent(QEvent* event) override;

private:
    void onDocumentOpened();
    void followPalette();
    void fillFiles();
    void scheduleCheck();
    void onValidated(std::shared_ptr<const ValidationOutcome> outcome);
    void updateTitle();

    Document* m_document;
    QString m_path;
    bool m_showFirstProblem = false;
    ValidationJob* m_job = nullptr;
    QTimer* m_debounce = nullptr;
    DiagnosticsModel* m_problems = nullptr;
    QComboBox* m_files = nullptr;
    QPushButton* m_save = nullptr;
    QLabel* m_status = nullptr;
    CodeEditor* m_editor = nullptr;
    QTableView* m_problemsView = nullptr;
    CelSelectorBox* m_celBox = nullptr;
};

} // namespace drasim::ui
