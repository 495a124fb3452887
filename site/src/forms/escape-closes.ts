/**
 * Marks something open that Escape closes (a toggletip). On reporter pages Escape is otherwise
 * Quick Exit; while such an element or a modal dialog is open, Escape closes that instead of
 * leaving: the reporter asked to dismiss it, not to throw the report away.
 */
export const ESCAPE_CLOSES_ATTRIBUTE = 'data-escape-closes';
