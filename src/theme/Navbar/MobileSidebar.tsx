import React, {useState} from 'react';
import MobileSidebar from '@theme-original/Navbar/MobileSidebar';
import {useNavbarMobileSidebar} from '@docusaurus/theme-common/internal';

/**
 * The small screen's menu drawer, drawn the first time it opens rather than
 * right after the page loads. Closed, it is invisible, yet it holds the
 * navbar's links and the whole docs sidebar: drawing them while the page
 * starts cost a phone as much as the page itself. Once drawn it stays, so it
 * opens and closes as before.
 */
export default function MobileSidebarWrapper() {
  const {shown} = useNavbarMobileSidebar();
  const [opened, setOpened] = useState(shown);
  if (shown && !opened) setOpened(true);
  return opened ? <MobileSidebar /> : null;
}
