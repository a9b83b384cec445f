/** The notification center: how many notifications one page (one "Load more") adds. */

export const NOTIFICATIONS_PAGE = 20;
