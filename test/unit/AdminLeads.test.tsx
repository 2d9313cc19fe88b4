import React from 'react';
import {screen, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Leads from '../../src/components/screens/Admin/Leads';
import {renderWithSite} from '../support/render';
import {NOW, useAdminWorkerStub} from '../stubs/adminWorkerStub';

const worker = useAdminWorkerStub();
const leads = Array.from({length: 3}, (_, index) => ({
  email: `lead${index}@example.com`,
  createdAt: NOW - index * 3_600_000,
}));

describe('the Leads panel', () => {
  it('lists the waitlist a page at a time', async () => {
    worker().reset({leads, pageSize: 2});
    renderWithSite(<Leads />, {env: {WORKER_URL: worker().url}, url: '/admin?view=leads&page=2'});
    const table = await screen.findByRole('table', {name: 'The waitlist'});
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['lead2@example.com30 Jun 2026, 10:00 UTC']);
    const pages = screen.getByRole('navigation', {name: 'Pages of e-mails'});
    expect(pages).toHaveTextContent('Page 2 of 2, 3 e-mails');
    expect(within(pages).getByRole('link', {name: 'Previous'})).toHaveAttribute('href', '/admin?view=leads');
    expect(worker().requests.at(-1)!.query.get('page')).toBe('2');
  });

  it('downloads the whole list as CSV through an authorised fetch, saved as a file', async () => {
    worker().reset({leads});
    const saved: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:leads';
    });
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    try {
      renderWithSite(<Leads />, {env: {WORKER_URL: worker().url}, url: '/admin?view=leads'});
      await userEvent.click(await screen.findByRole('button', {name: 'Download CSV'}));
      expect(await screen.findByText('The waitlist was downloaded as CSV.')).toHaveAttribute('role', 'status');
      expect(worker().requests.at(-1)!.path).toBe('/admin/leads.csv');
      expect(names).toEqual([expect.stringMatching(/^leads-\d{4}-\d{2}-\d{2}\.csv$/)]);
      expect(await saved[0]!.text()).toMatch(/^email,created_at\nlead0@example.com,/);
    } finally {
      click.mockRestore();
    }
  });

  it('shows the worker’s error when the CSV is refused', async () => {
    worker().refuse('/admin/leads.csv', 500, {error: 'Something went wrong'});
    renderWithSite(<Leads />, {env: {WORKER_URL: worker().url}, url: '/admin?view=leads'});
    await userEvent.click(await screen.findByRole('button', {name: 'Download CSV'}));
    expect(await screen.findByText('Something went wrong')).toHaveAttribute('role', 'alert');
  });
});
