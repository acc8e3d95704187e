// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include <QPlainTextEdit>

class QUndoStack;

namespace drasim::ui {

/// A plain-text editor for manifests: line numbers in a gutter, problem lines underlined and
/// marked in the gutter (their message as a tooltip), and Undo/Redo keys sent to the document's
/// undo stack instead of the text's own, so the window's Edit menu stays the one history. Files
/// dragged onto it are not pasted as text: the drag goes on to the window, which opens them.
class CodeEditor : public QPlainTextEdit
{
    Q_OBJECT
public:
    struct Problem
    {
        int line = 0; ///< 1-based
        int column = 0; ///< 1-based, 0: the whole line
        bool error = true;
        QString message;
    };

    explicit CodeEditor(QWidget* parent = nullptr);

    void setUndoStack(QUndoStack* undo) { m_undo = undo; }
    void setProblems(std::vector<Problem> problems);
    const std::vector<Problem>& problems() const { return m_problems; }
    /// The lines (1-based) marked as having a problem, in order.
    QList<int> markedLines() const;
    /// Moves the cursor to line:column (1-based) and shows it.
    void goTo(int line, int column);
    int gutterWidth() const;

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool canInsertFromMimeData(const QMimeData* source) const override;

private:
    friend class LineGutter;
    void paintGutter(QPaintEvent* event);
    void updateMarks();
    const Problem* problemAt(int line) const;

    QWidget* m_gutter = nullptr;
    QUndoStack* m_undo = nullptr;
    std::vector<Problem> m_problems;
};

} // namespace drasim::ui
