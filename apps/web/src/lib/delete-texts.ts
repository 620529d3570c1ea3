/** Spec section 8's delete texts ("Deleting"), with the item as the screen names it. */
export const deletedText = (item: string) => `✅ ${item} deleted successfully`;
export const deleteFailedText = (item: string) => `❌ Error deleting ${item}`;
