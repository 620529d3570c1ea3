import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderScreen } from '../../test/discovery.test-support';
import { AskFirst } from './ask-first';

function ask(onConfirm: (close: () => void) => Promise<unknown>) {
  renderScreen(
    <AskFirst
      label="Delete Project"
      question="Delete it?"
      confirmLabel="Delete"
      size="xs"
      variant="light"
      wrap="nowrap"
      pending={false}
      onConfirm={onConfirm}
    />,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Delete Project' }));
  return screen.getByRole('button', { name: 'Delete' });
}

describe('AskFirst', () => {
  it('acts once on a double click, before the act can show it is pending, and again once it settled', async () => {
    let settle = () => {};
    const onConfirm = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          settle = resolve;
        }),
    );
    const yes = ask(onConfirm);
    fireEvent.click(yes);
    fireEvent.click(yes);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    // A failure leaves the question open (close not called): it can be answered again.
    await act(async () => settle());
    fireEvent.click(yes);
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('withdraws the question when the act closes it', async () => {
    const yes = ask(async (close) => close());
    await act(async () => fireEvent.click(yes));
    expect(screen.queryByText('Delete it?')).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete Project' })).toBeTruthy();
  });
});
