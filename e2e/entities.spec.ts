import { expect, test } from '@playwright/test';
import { ImportPage } from './pages/import';
import { IndexPanels } from './pages/index-panels';
import { InboxPage } from './pages/inbox';
import { RecallPage } from './pages/recall';

const TRIP = [
  'User: My sister Maria and I are planning a week in Lisbon in June. Should we stay in Alfama?',
  'Assistant: Alfama suits a first visit to Lisbon; in June the Santo António festival fills its streets, so book early.',
  'User: Great, we will book Alfama for Maria and me, and take the train to Cascais one day.',
].join('\n');

test("a message's entities are chips typed by the tagger (person, place, date); one lists what the vault links to it and what it says", async ({
  page,
}) => {
  const importPage = new ImportPage(page);
  await importPage.open();
  await importPage.paste(TRIP);
  expect((await importPage.storedCounts()).conversations).toBe(1);
  // What the vault says about a name comes from the extracted units' triples: let extraction finish.
  const inbox = new InboxPage(page);
  await inbox.open();
  await inbox.waitForCandidates();
  // The links of a chip come from the index worker's entity graph: let indexing finish first.
  const panels = new IndexPanels(page);
  await panels.openSettings();
  await panels.waitUpToDate();
  await page.getByRole('navigation').getByRole('link', { name: 'Conversations' }).click();
  await page.getByTestId('conversation-item').first().getByRole('link').click();
  const first = page.getByTestId('message').first().getByTestId('entity-chip');
  // The tagger loads on first use: until then the chips show untyped.
  await expect(first.and(page.locator('[data-entity="lisbon"]'))).toHaveAttribute('data-type', 'place');
  await expect(first.and(page.locator('[data-entity="maria"]'))).toHaveAttribute('data-type', 'person');
  await expect(first.and(page.locator('[data-entity="june"]'))).toHaveAttribute('data-type', 'date');
  await expect(first.and(page.locator('[data-entity="lisbon"]'))).toHaveAttribute('title', 'Place');
  // A chip lists everything the vault links to the name (the index worker's entity graph).
  await first.and(page.locator('[data-entity="lisbon"]')).click();
  const links = page.getByTestId('entity-links');
  await expect(links).toHaveAttribute('data-entity', 'lisbon');
  await expect(links.getByTestId('entity-linked-item')).toHaveCount(2);
  // And what the extracted units say about it (subject, relation, object), the user written as "You".
  const facts = links.getByTestId('entity-fact');
  await expect(facts).toHaveCount(2);
  await expect(links.getByTestId('entity-facts')).toContainText('You are planning a week in Lisbon in June');
  await expect(links.getByTestId('entity-facts')).toContainText('Alfama suits a first visit to Lisbon');

  // Recall: the item a triple about the prompt's entity found says which triple it was.
  const recall = new RecallPage(page);
  await recall.open();
  await recall.input.fill('Where will we book for Maria?');
  await recall.input.press('Enter');
  const found = recall.memories.filter({ hasText: 'we will book Alfama' }).first();
  await expect(found.getByTestId('recall-result-triple')).toHaveText('Found by what it says: You · will book · Alfama for Maria');
});
