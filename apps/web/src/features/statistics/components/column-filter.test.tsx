import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAs } from '../statistics.test-support';
import { ColumnFilter } from './column-filter';

const user = userEvent.setup({ delay: null });

/** Two columns' filters side by side, as a table header holds them. */
function Header() {
  const [accounts, setAccounts] = useState<string[]>([]);
  const [sent, setSent] = useState<string[]>([]);
  return (
    <div>
      <ColumnFilter label="Accounts" values={['0', '1', '2']} selected={accounts} onChange={setAccounts} />
      <ColumnFilter label="Sent" values={['5']} selected={sent} onChange={setSent} />
    </div>
  );
}

describe('column filter', () => {
  it('opens by keyboard into its values, keeps Tab inside, and Escape closes it back onto its button', async () => {
    renderAs(['ADMIN'], <Header />);
    const trigger = screen.getByRole('button', { name: 'Filter Accounts' });
    trigger.focus();
    await user.keyboard('{Enter}');
    const boxes = await screen.findAllByRole('checkbox');
    expect(boxes.map((b) => b.getAttribute('value'))).toEqual(['0', '1', '2']);
    // Opening moves focus to the first value.
    await waitFor(() => expect(document.activeElement).toBe(boxes[0]));

    // Tab goes through the values and round again, not on to the next column's button.
    await user.tab();
    expect(document.activeElement).toBe(boxes[1]);
    await user.tab();
    expect(document.activeElement).toBe(boxes[2]);
    await user.tab();
    expect(document.activeElement).toBe(boxes[0]);
    expect(document.activeElement).not.toBe(screen.getByRole('button', { name: 'Filter Sent' }));

    // Space picks a value from the keyboard.
    await user.keyboard(' ');
    expect((boxes[0] as HTMLInputElement).checked).toBe(true);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('checkbox')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
  });

  it('with no values to pick, still takes focus so Escape closes it', async () => {
    renderAs(['ADMIN'], <ColumnFilter label="Accounts" values={[]} selected={[]} onChange={() => {}} />);
    const trigger = screen.getByRole('button', { name: 'Filter Accounts' });
    trigger.focus();
    await user.keyboard('{Enter}');
    const dropdown = await screen.findByRole('dialog');
    expect(dropdown.textContent).toContain('No values');
    await waitFor(() => expect(dropdown.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });
});
