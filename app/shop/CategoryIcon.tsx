import { HomeIcon, LineIcon, ToolIcon } from "~/shell/icons";

/**
 * SPEC §3 Category: icons for Furniture, Electronics, Services, Mobile Devices
 * and Home Goods, a default one for any other category; 'All' has its own.
 */
const icons: Record<string, () => React.ReactNode> = {
  All: () => (
    <LineIcon>
      <rect x="3" y="3" width="7" height="7" rx="1" />
      <rect x="14" y="3" width="7" height="7" rx="1" />
      <rect x="3" y="14" width="7" height="7" rx="1" />
      <rect x="14" y="14" width="7" height="7" rx="1" />
    </LineIcon>
  ),
  Furniture: () => (
    <LineIcon>
      <path d="M4 11V8a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v3" />
      <path d="M2 13a2 2 0 0 1 4 0v2h12v-2a2 2 0 0 1 4 0v5H2zM5 18v2M19 18v2" />
    </LineIcon>
  ),
  Electronics: () => (
    <LineIcon>
      <rect x="6" y="6" width="12" height="12" rx="2" />
      <path d="M10 10h4v4h-4zM9 2v4M15 2v4M9 18v4M15 18v4M2 9h4M2 15h4M18 9h4M18 15h4" />
    </LineIcon>
  ),
  Services: () => <ToolIcon />,
  "Mobile Devices": () => (
    <LineIcon>
      <rect x="6" y="2" width="12" height="20" rx="2" />
      <path d="M11 18h2" />
    </LineIcon>
  ),
  "Home Goods": () => <HomeIcon />,
};

const defaultIcon = () => (
  <LineIcon>
    <path d="M20.6 13.4 13.4 20.6a2 2 0 0 1-2.8 0L3 13V3h10l7.6 7.6a2 2 0 0 1 0 2.8z" />
    <circle cx="7.5" cy="7.5" r="1.5" />
  </LineIcon>
);

export function CategoryIcon({ name }: { name: string }) {
  return (icons[name] ?? defaultIcon)();
}
