// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/code_editor.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>
#include <QUndoStack>

#include "ui/models/tone_colors.h"

namespace drasim::ui {

/// The gutter left of the text: line numbers and a mark on problem lines.
class LineGutter : public QWidget
{
public:
    explicit LineGutter(CodeEditor* editor)
        : QWidget(editor)
        , m_editor(editor)
    { }
    QSize sizeHint() const override { return { m_editor->gutterWidth(), 0 }; }

protected:
    void paintEvent(QPaintEvent* event) override { m_editor->paintGutter(event); }

private:
    CodeEditor* m_editor;
};

CodeEditor::CodeEditor(QWidget* parent)
    : QPlainTextEdit(parent)
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabChangesFocus(false);
    m_gutter = new LineGutter(this);
    connect(this, &QPlainTextEdit::blockCountChanged, this,
        [this]() { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int CodeEditor::gutterWidth() const
{
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10)
        ++digits;
    return 14 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
}

void CodeEditor::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void CodeEditor::paintGutter(QPaintEvent* event)
{
    QPainter painter(m_gutter);
    const QPalette pal = palette();
    painter.fillRect(event->rect(), pal.color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int lineHeight = fontMetrics().height();
    while (block.isValid() && top <= event->rect().bottom()) {
        const int line = block.blockNumber() + 1;
        if (block.isVisible()) {
            if (const Problem* p = problemAt(line)) {
                painter.setPen(Qt::NoPen);
                painter.setBrush(toneColor(p->error ? Tone::Bad : Tone::Warning, pal));
                painter.drawEllipse(QRectF(3, top + lineHeight / 2.0 - 4, 8, 8));
            }
            painter.setPen(pal.color(QPalette::PlaceholderText));
            painter.drawText(0, top, m_gutter->width() - 4, lineHeight, Qt::AlignRight | Qt::AlignVCenter,
                QString::number(line));
        }
        top += qRound(blockBoundingRect(block).height());
        block = block.next();
    }
}

void CodeEditor::setProblems(std::vector<Problem> problems)
{
    m_problems = std::move(problems);
    updateMarks();
    m_gutter->update();
}

const CodeEditor::Problem* CodeEditor::problemAt(int line) const
{
    const Problem* found = nullptr;
    for (const auto& p : m_problems)
        if (p.line == line && (!found || (p.error && !found->error)))
            found = &p;
    return found;
}

QList<int> CodeEditor::markedLines() const
{
    QList<int> lines;
    for (const auto& p : m_problems)
        if (p.line > 0 && !lines.contains(p.line))
            lines << p.line;
    std::sort(lines.begin(), lines.end());
    return lines;
}

void CodeEditor::updateMarks()
{
    // The whole problem line gets a light background; from the column on, a wavy underline.
    QList<QTextEdit::ExtraSelection> marks;
    for (const auto& p : m_problems) {
        const QTextBlock block = document()->findBlockByNumber(p.line - 1);
        if (!block.isValid())
            continue;
        const QColor colour = toneColor(p.error ? Tone::Bad : Tone::Warning, palette());
        QTextEdit::ExtraSelection line;
        line.cursor = QTextCursor(block);
        line.format.setBackground(QColor(colour.red(), colour.green(), colour.blue(), 28));
        line.format.setProperty(QTextFormat::FullWidthSelection, true);
        marks << line;
        QTextEdit::ExtraSelection under;
        under.cursor = QTextCursor(block);
        under.cursor.setPosition(block.position() + std::clamp(p.column - 1, 0, int(block.length()) - 1));
        under.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        under.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        under.format.setUnderlineColor(colour);
        under.format.setToolTip(p.message);
        marks << under;
    }
    setExtraSelections(marks);
}

void CodeEditor::goTo(int line, int column)
{
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid())
        return;
    QTextCursor c(block);
    c.setPosition(block.position() + std::clamp(column - 1, 0, int(block.length()) - 1));
    setTextCursor(c);
    centerCursor();
    setFocus();
}

void CodeEditor::keyPressEvent(QKeyEvent* event)
{
    if (m_undo && event->matches(QKeySequence::Undo)) {
        m_undo->undo();
        return;
    }
    if (m_undo && event->matches(QKeySequence::Redo)) {
        m_undo->redo();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void CodeEditor::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        updateMarks(); // the marks' shades belong to the palette
    QPlainTextEdit::changeEvent(event);
}

bool CodeEditor::event(QEvent* event)
{
    // The problem under the mouse, in words.
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QPoint at = viewport()->mapFromGlobal(help->globalPos());
        const int line = cursorForPosition(at).blockNumber() + 1;
        QStringList lines;
        for (const auto& p : m_problems)
            if (p.line == line)
                lines << p.message;
        if (!lines.isEmpty()) {
            QToolTip::showText(help->globalPos(), lines.join(QLatin1Char('\n')), this);
            return true;
        }
    }
    return QPlainTextEdit::event(event);
}

bool CodeEditor::canInsertFromMimeData(const QMimeData* source) const
{
    // A file manager's drag carries the files' paths as text too; refusing it lets the window
    // open the files instead of the editor typing their names.
    if (source->hasUrls())
        return false;
    return QPlainTextEdit::canInsertFromMimeData(source);
}

} // namespace drasim::ui
