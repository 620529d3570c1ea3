/** Spec section 8's delete texts ("Deleting"), with the item as the screen names it. */
export const deletedText = (item: string) => `✅ ${item} deleted successfully`;
export const deleteFailedText = (item: string) => `❌ Error deleting ${item}`;
/** Deleting all of a list: how many went (it succeeds or fails as a whole), or that it failed. */
export const deletedAllText = (count: number, one: string, many: string) =>
  `✅ ${count} ${count === 1 ? one : many} deleted successfully`;
export const DELETE_ALL_FAILED = 'Failed to delete';
